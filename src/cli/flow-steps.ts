// A flow run's step verdicts as a terminal shows them: `amc flow run` (one phone or several), `amc submit --wait`
// and `amc fleet` for flow jobs.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliIo } from './command';
import { stepsPassed, type FlowStepResult, type FlowStepStatus } from '../shared/flow';
import type { FlowRunReport } from '../core/flows/flow-run-report';
import { ENGLISH, type Words } from '../shared/i18n/translate';
import { saidWords } from '../shared/supervision-words';

/** Each status's word in the `cli:flowSteps.status` catalog. */
const STATUS_KEYS: Record<FlowStepStatus, string> = { passed: 'passed', healed: 'healed', failed: 'failed', 'skipped-already-done': 'skipped', 'not-run': 'notRun' };
const statusWord = (status: FlowStepStatus, { t }: Words) => t(`cli:flowSteps.status.${STATUS_KEYS[status]}`);

/** "7 of 9 steps passed (1 failed, 1 not run)", "9 of 9 steps passed (1 healed by the model)": healed and already done steps pass. */
export function stepsPassedWords(steps: readonly FlowStepResult[], words: Words = ENGLISH): string {
  const { t } = words;
  const count = (status: FlowStepStatus) => steps.filter((step) => step.status === status).length;
  const apart = [
    [count('healed'), 'healed'],
    [count('failed'), 'failed'],
    [count('not-run'), 'notRun'],
  ] as const;
  const parts = apart.filter(([n]) => n > 0).map(([number, key]) => t(`cli:flowSteps.${key}`, { number }));
  const rest = parts.length ? t('cli:flowSteps.apart', { parts: parts.join(t('common:listSeparator')) }) : '';
  return t('cli:flowSteps.summary', { passed: stepsPassed(steps), count: steps.length, apart: rest });
}

/** What a step found, in the terminal's language where it carries a code (a refusal, a stop). */
const stepDetail = (step: FlowStepResult, words: Words) => saidWords(step.detail, step.said, words);

/** One line per step with what it found. */
export function flowStepLines(steps: readonly FlowStepResult[], indent = '  ', words: Words = ENGLISH): string[] {
  const width = Math.max(...Object.keys(STATUS_KEYS).map((status) => statusWord(status as FlowStepStatus, words).length));
  return steps.map((step) => `${indent}${statusWord(step.status, words).padEnd(width)}  ${step.index + 1}. ${saidWords(step.label, step.labelSaid, words)}${step.detail ? ` — ${stepDetail(step, words)}` : ''}`);
}

/** A title with the count of steps passed, then a line per step. */
export function printFlowSteps(io: CliIo, title: string, steps: readonly FlowStepResult[], words: Words = ENGLISH): void {
  io.out(words.t('cli:flowSteps.heading', { title, summary: stepsPassedWords(steps, words) }));
  for (const line of flowStepLines(steps, '  ', words)) io.out(line);
}

const flowName = (flowFile: string) => path.basename(flowFile).replace(/\.ya?ml$/i, '');

/** Writes a JUnit file, making its folder first (a CI job names a fresh `reports/` folder). */
export async function writeJunitXml(target: string, xml: string): Promise<void> {
  await mkdir(path.dirname(path.resolve(target)), { recursive: true });
  await writeFile(target, xml);
}

/** `--junit FILE`: one testsuite per run, each named after the flow file (and its phone, given `device`). */
export async function writeJunitReport(target: string, flowFile: string, reports: ReadonlyArray<Omit<FlowRunReport, 'name'>>, words: Words = ENGLISH): Promise<void> {
  const { junitXml } = await import('../core/flows/junit-report');
  // A step's message in the terminal's language where it carries a code (a refusal, a stop).
  const worded = reports.map((report) => ({ ...report, name: flowName(flowFile), steps: report.steps.map((step) => ({ ...step, detail: stepDetail(step, words) })) }));
  await writeJunitXml(target, junitXml(worded));
}

/** `--junit FILE` for a flow file whose check failed: nothing ran, and CI shows why as an error. */
export async function writeJunitCheckError(target: string, flowFile: string, problems: string): Promise<void> {
  const { junitCheckError } = await import('../core/flows/junit-report');
  await writeJunitXml(target, junitCheckError({ name: flowName(flowFile), startedAt: new Date().toISOString(), problems }));
}
