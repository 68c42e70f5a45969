import { ExitCode, UsageError, type CliIo } from './command';
import { parseCommandArgs } from './args';
import { ADB_OPTIONS_USAGE, adbOptions } from './commands/devices';
import { PLANNER_OPTIONS_USAGE, plannerOptions } from './planner-options';
import { SUPERVISION_OPTIONS_USAGE, supervisionOptions } from './supervision-options';
import { runTaskAtTerminal } from './task-at-terminal';
import { FLOW_VAR_USAGE, flowFileArgument, flowVarOption, flowVarsOf, readFlowFile } from './flow-files';
import { printFlowSteps, writeJunitReport } from './flow-steps';
import { flowPassed } from '../shared/flow';
import { LAUNCH_TARGETS_USAGE, launchTargetOptions, launchTargetsOf } from './launch-targets';

export const FLOW_RUN_USAGE = `amc flow run FILE ${LAUNCH_TARGETS_USAGE} ${FLOW_VAR_USAGE} [--json] [--junit FILE] ${SUPERVISION_OPTIONS_USAGE} ${PLANNER_OPTIONS_USAGE} ${ADB_OPTIONS_USAGE}`;

/**
 * `amc flow run FILE`: the flow's steps on a phone, as `amc run` carries out a goal (the same supervision, history
 * and exit codes), each action replayed on the element its locator finds on the fresh screen; asserts judged in
 * code, `ask_ai` and `ai` steps answered by the configured model. Exit 0 only when every step passed. With --all or
 * --group NAME it runs on several phones at once (flow-launch.ts): exit 0 only when every phone passed every step.
 */
export async function runFlowFile(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { ...launchTargetOptions, ...flowVarOption, json: { type: 'boolean' }, junit: { type: 'string' }, ...supervisionOptions, ...plannerOptions, ...adbOptions },
    true,
  );
  const file = flowFileArgument(positionals, FLOW_RUN_USAGE);
  if (values.junit !== undefined && !values.junit.trim()) throw new UsageError('--junit needs a file name, e.g. --junit flow-results.xml');
  const targets = launchTargetsOf(values);
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

  if (targets) {
    const { runFlowLaunch } = await import('./flow-launch');
    return runFlowLaunch({ targets, file, flow, ...(values.junit && { junit: values.junit }) }, values, io);
  }

  // Loaded lazily so `amc --help` stays fast.
  const { createFlowRunRecorder } = await import('../main/flows/flow-run-recorder');
  const { flowRunPlanner } = await import('../main/flows/flow-planner');
  const recorder = createFlowRunRecorder(flow);
  const startedAt = new Date();
  const code = await runTaskAtTerminal('flow run', values, io, async ({ config, configured }) => ({ goal: flow.goal, planner: flowRunPlanner(flow, config, configured, recorder) }));

  const steps = recorder.results(code === ExitCode.ok ? { completed: true } : { completed: false, reason: code === ExitCode.cancelled ? 'the run was stopped' : 'the run did not finish' });
  const passed = flowPassed(steps);
  if (values.json) io.out(JSON.stringify({ type: 'flow.finished', file, passed, steps }));
  else printFlowSteps(io, `Flow ${file}`, steps);
  if (values.junit) await writeJunitReport(values.junit, file, [{ goal: flow.goal, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), steps }]);
  // The task's own code says how it ended; a flow whose model finished the goal after a step failed still failed.
  return code === ExitCode.ok && !passed ? ExitCode.failed : code;
}
