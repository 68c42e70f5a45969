import type { FlowStep, FlowStepResult } from '../../shared/flow';

/** A flow run, step by step, as `amc flow run` prints it and its JUnit report carries it. */

export { FLOW_STEP_STATUSES, flowPassed, type FlowStepResult } from '../../shared/flow';
export type FlowStepStatus = FlowStepResult['status'];
export type FlowStepKind = FlowStepResult['kind'];

export function flowStepKind(step: FlowStep): FlowStepKind {
  if ('tool' in step || 'copy_text' in step || 'screenshot' in step) return 'action';
  if ('ai' in step) return 'ai';
  if ('assert' in step) return 'assert';
  if ('ask_ai' in step) return 'ask_ai';
  return 'wait';
}

export interface FlowRunReport {
  /** The flow's name: its file's name without the extension. */
  name: string;
  /** The phone it ran on, when the run was one of several (`--all`, `--group`). */
  device?: string;
  goal: string;
  /** ISO 8601. */
  startedAt: string;
  durationMs: number;
  steps: FlowStepResult[];
}
