import type { FlowStep } from '../../shared/flow';

/** A flow run, step by step, as `amc flow run` prints it and its JUnit report carries it. */

/** `not-run`: an earlier step failed or the run stopped before it. */
export const FLOW_STEP_STATUSES = ['passed', 'failed', 'not-run'] as const;
export type FlowStepStatus = (typeof FLOW_STEP_STATUSES)[number];

export type FlowStepKind = 'action' | 'ai' | 'assert' | 'ask_ai';

export const flowStepKind = (step: FlowStep): FlowStepKind => ('tool' in step ? 'action' : 'ai' in step ? 'ai' : 'assert' in step ? 'assert' : 'ask_ai');

export interface FlowStepResult {
  /** 0-based position in the flow's steps. */
  index: number;
  kind: FlowStepKind;
  /** The step as the file writes it, on one line (`tap: { text: Wi-Fi }`). */
  label: string;
  status: FlowStepStatus;
  /** What happened in plain words: the fact an assert found, why a step failed, "skipped: already done". */
  detail: string;
  durationMs: number;
}

export interface FlowRunReport {
  /** The flow's name: its file's name without the extension. */
  name: string;
  goal: string;
  /** ISO 8601. */
  startedAt: string;
  durationMs: number;
  steps: FlowStepResult[];
}

/** A flow run passes only when every one of its steps (asserts and questions included) passed. */
export const flowPassed = (steps: readonly FlowStepResult[]): boolean => steps.every((step) => step.status === 'passed');
