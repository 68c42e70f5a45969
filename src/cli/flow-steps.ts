// A flow run's step verdicts as a terminal shows them: `amc flow run` (one phone or several), `amc submit --wait`
// and `amc fleet` for flow jobs.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliIo } from './command';
import type { FlowStepResult } from '../shared/flow';
import type { FlowRunReport } from '../main/flows/flow-run-report';

const STATUS_WORDS: Record<FlowStepResult['status'], string> = { passed: 'passed ', failed: 'FAILED ', 'not-run': 'not run' };

/** "7 of 9 steps passed" */
export function stepsPassedWords(steps: readonly FlowStepResult[]): string {
  const passed = steps.filter((step) => step.status === 'passed').length;
  return `${passed} of ${steps.length} ${steps.length === 1 ? 'step' : 'steps'} passed`;
}

/** One line per step with what it found. */
export function flowStepLines(steps: readonly FlowStepResult[], indent = '  '): string[] {
  return steps.map((step) => `${indent}${STATUS_WORDS[step.status]}  ${step.index + 1}. ${step.label}${step.detail ? ` — ${step.detail}` : ''}`);
}

/** A title with the count of steps passed, then a line per step. */
export function printFlowSteps(io: CliIo, title: string, steps: readonly FlowStepResult[]): void {
  io.out(`${title}: ${stepsPassedWords(steps)}`);
  for (const line of flowStepLines(steps)) io.out(line);
}

/** `--junit FILE`: one testsuite per run, each named after the flow file (and its phone, given `suffix`). */
export async function writeJunitReport(target: string, flowFile: string, reports: ReadonlyArray<Omit<FlowRunReport, 'name'> & { suffix?: string }>): Promise<void> {
  const { junitXml } = await import('../main/flows/junit-report');
  const name = path.basename(flowFile).replace(/\.ya?ml$/i, '');
  await writeFile(target, junitXml(...reports.map(({ suffix, ...report }) => ({ ...report, name: suffix ? `${name} ${suffix}` : name }))));
}
