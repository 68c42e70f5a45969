import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError, type CliIo } from './command';
import { parseCommandArgs } from './args';
import { ADB_OPTIONS_USAGE, adbOptions } from './commands/devices';
import { PLANNER_OPTIONS_USAGE, plannerOptions } from './planner-options';
import { SUPERVISION_OPTIONS_USAGE, supervisionOptions } from './supervision-options';
import { runTaskAtTerminal } from './task-at-terminal';
import { FLOW_VAR_USAGE, flowFileArgument, flowVarOption, flowVarsOf, readFlowFile } from './flow-files';
import type { FlowStepResult } from '../main/flows/flow-run-report';

export const FLOW_RUN_USAGE = `amc flow run FILE [-s SERIAL] ${FLOW_VAR_USAGE} [--json] [--junit FILE] ${SUPERVISION_OPTIONS_USAGE} ${PLANNER_OPTIONS_USAGE} ${ADB_OPTIONS_USAGE}`;

const STATUS_WORDS: Record<FlowStepResult['status'], string> = { passed: 'passed ', failed: 'FAILED ', 'not-run': 'not run' };

/** The end of a run at a terminal: a line per step with what it found, and the verdict. */
function printSteps(io: CliIo, file: string, steps: readonly FlowStepResult[]): void {
  const passed = steps.filter((step) => step.status === 'passed').length;
  io.out(`Flow ${file}: ${passed} of ${steps.length} ${steps.length === 1 ? 'step' : 'steps'} passed`);
  for (const step of steps) io.out(`  ${STATUS_WORDS[step.status]}  ${step.index + 1}. ${step.label}${step.detail ? ` — ${step.detail}` : ''}`);
}

/**
 * `amc flow run FILE`: the flow's steps on a phone, as `amc run` carries out a goal (the same supervision, history
 * and exit codes), each action replayed on the element its locator finds on the fresh screen; asserts judged in
 * code, `ask_ai` and `ai` steps answered by the configured model. Exit 0 only when every step passed.
 */
export async function runFlowFile(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { serial: { type: 'string', short: 's' }, ...flowVarOption, json: { type: 'boolean' }, junit: { type: 'string' }, ...supervisionOptions, ...plannerOptions, ...adbOptions },
    true,
  );
  const file = flowFileArgument(positionals, FLOW_RUN_USAGE);
  if (values.junit !== undefined && !values.junit.trim()) throw new UsageError('--junit needs a file name, e.g. --junit flow-results.xml');
  const vars = flowVarsOf(values);
  const { FlowFileError } = await import('../main/flows/flow-file');
  let flow;
  try {
    flow = await readFlowFile(file, vars);
  } catch (error) {
    // A broken file is a usage error, as for `amc flow check`: nothing ran.
    if (!(error instanceof FlowFileError)) throw error;
    io.err(`amc flow run: ${error.message}`);
    return ExitCode.usage;
  }

  // Loaded lazily so `amc --help` stays fast.
  const { createFlowRunRecorder } = await import('../main/flows/flow-run-recorder');
  const { flowRunPlanner } = await import('../main/flows/flow-planner');
  const recorder = createFlowRunRecorder(flow);
  const startedAt = new Date();
  const code = await runTaskAtTerminal('flow run', values, io, async ({ config, configured }) => ({ goal: flow.goal, planner: flowRunPlanner(flow, config, configured, recorder) }));

  const steps = recorder.results(code === ExitCode.ok ? { completed: true } : { completed: false, reason: code === ExitCode.cancelled ? 'the run was stopped' : 'the run did not finish' });
  const passed = steps.every((step) => step.status === 'passed');
  if (values.json) io.out(JSON.stringify({ type: 'flow.finished', file, passed, steps }));
  else printSteps(io, file, steps);
  if (values.junit) {
    const { junitXml } = await import('../main/flows/junit-report');
    const name = path.basename(file).replace(/\.ya?ml$/i, '');
    await writeFile(values.junit, junitXml({ name, goal: flow.goal, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), steps }));
  }
  // The task's own code says how it ended; a flow whose model finished the goal after a step failed still failed.
  return code === ExitCode.ok && !passed ? ExitCode.failed : code;
}
