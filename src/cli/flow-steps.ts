// A flow run's step verdicts as a terminal shows them: `amc flow run` (one phone or several), `amc submit --wait`
// and `amc fleet` for flow jobs.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliIo } from './command';
import type { FlowStepResult } from '../shared/flow';
import type { FlowRunReport } from '../main/flows/flow-run-report';

const STATUS_WORDS: Record<FlowStepResult['status'], string> = { passed: 'passed ', healed: 'HEALED ', failed: 'FAILED ', 'not-run': 'not run' };

/** "7 of 9 steps passed", "9 of 9 steps passed (1 healed by the model)" */
export function stepsPassedWords(steps: readonly FlowStepResult[]): string {
  const healed = steps.filter((step) => step.status === 'healed').length;
  const passed = steps.filter((step) => step.status === 'passed').length + healed;
  return `${passed} of ${steps.length} ${steps.length === 1 ? 'step' : 'steps'} passed${healed ? ` (${healed} healed by the model)` : ''}`;
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

const flowName = (flowFile: string) => path.basename(flowFile).replace(/\.ya?ml$/i, '');

/** Writes a JUnit file, making its folder first (a CI job names a fresh `reports/` folder). */
async function writeJunitFile(target: string, xml: string): Promise<void> {
  await mkdir(path.dirname(path.resolve(target)), { recursive: true });
  await writeFile(target, xml);
}

/** `--junit FILE`: one testsuite per run, each named after the flow file (and its phone, given `device`). */
export async function writeJunitReport(target: string, flowFile: string, reports: ReadonlyArray<Omit<FlowRunReport, 'name'>>): Promise<void> {
  const { junitXml } = await import('../main/flows/junit-report');
  await writeJunitFile(target, junitXml(reports.map((report) => ({ ...report, name: flowName(flowFile) }))));
}

/** `--junit FILE` for a flow file whose check failed: nothing ran, and CI shows why as an error. */
export async function writeJunitCheckError(target: string, flowFile: string, problems: string): Promise<void> {
  const { junitCheckError } = await import('../main/flows/junit-report');
  await writeJunitFile(target, junitCheckError({ name: flowName(flowFile), startedAt: new Date().toISOString(), problems }));
}
