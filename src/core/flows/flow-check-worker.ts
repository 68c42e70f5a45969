import { parentPort } from 'node:worker_threads';
import { parseFlowFile, type FlowFileResult } from './flow-file';

/** The flow checker's entry: reads and checks flow files off the app's main thread (see flow-checker.ts). */
export interface FlowCheckRequest {
  id: number;
  text: string;
  vars: Record<string, string>;
  /** `summary`: only what a check shows (goal, step count, variables), so the main thread takes no whole flow. */
  want: 'flow' | 'summary';
}
export interface FlowSummary {
  goal: string;
  steps: number;
  vars: string[];
}
export type FlowCheckReply = { id: number; result: FlowFileResult } | { id: number; summary: FlowSummary } | { id: number; error: string };

parentPort!.on('message', ({ id, text, vars, want }: FlowCheckRequest) => {
  try {
    const result = parseFlowFile(text, { vars });
    const reply: FlowCheckReply =
      want === 'summary' && result.ok ? { id, summary: { goal: result.flow.goal, steps: result.flow.steps.length, vars: Object.keys(result.flow.vars) } } : { id, result };
    parentPort!.postMessage(reply);
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies FlowCheckReply);
  }
});
