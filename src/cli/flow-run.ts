import { ExitCode, UsageError, type CliIo } from './command';
import { parseCommandArgs } from './args';
import { ADB_OPTIONS_USAGE, adbOptions } from './commands/devices';
import { PLANNER_OPTIONS_USAGE, plannerOptions } from './planner-options';
import { SUPERVISION_OPTIONS_USAGE, supervisionOptions } from './supervision-options';
import { runTaskAtTerminal } from './task-at-terminal';
import { FLOW_VAR_USAGE, flowFileArgument, flowVarOption, flowVarsOf, readFlowFile } from './flow-files';
import { printFlowSteps, writeJunitCheckError, writeJunitReport } from './flow-steps';
import { flowPassed, type FlowStepResult } from '../shared/flow';
import type { TaskRecord } from '../shared/task';
import { readFile, writeFile } from 'node:fs/promises';
import { finishedVerdict } from '../shared/verdict';
import { LAUNCH_TARGETS_USAGE, launchTargetOptions, launchTargetsOf } from './launch-targets';

export const FLOW_RUN_USAGE = `amc flow run FILE ${LAUNCH_TARGETS_USAGE} ${FLOW_VAR_USAGE} [--heal] [--json] [--junit FILE] ${SUPERVISION_OPTIONS_USAGE} ${PLANNER_OPTIONS_USAGE} ${ADB_OPTIONS_USAGE}`;
export const FLOW_HEAL_USAGE = `amc flow heal FILE [-s SERIAL] ${FLOW_VAR_USAGE} [--json] [--junit FILE] ${SUPERVISION_OPTIONS_USAGE} ${PLANNER_OPTIONS_USAGE} ${ADB_OPTIONS_USAGE}`;

/**
 * `amc flow run FILE`: the flow's steps on a phone, as `amc run` carries out a goal (the same supervision, history
 * and exit codes), each action replayed on the element its locator finds on the fresh screen; asserts judged in
 * code, `ask_ai` and `ai` steps answered by the configured model. Exit 0 only when every step passed. With --all or
 * --group NAME it runs on several phones at once (flow-launch.ts): exit 0 only when every phone passed every step.
 */
export function runFlowFile(args: string[], io: CliIo): Promise<number> {
  return runFlow(args, io, 'run');
}

/**
 * `amc flow heal FILE`: the flow run with `--heal` on one phone; each step the model repaired is written into a copy
 * of the file beside it (NAME.healed.yaml), and the difference is printed for a person to review before keeping it.
 */
export function healFlowFile(args: string[], io: CliIo): Promise<number> {
  return runFlow(args, io, 'heal');
}

async function runFlow(args: string[], io: CliIo, mode: 'run' | 'heal'): Promise<number> {
  const usage = mode === 'run' ? FLOW_RUN_USAGE : FLOW_HEAL_USAGE;
  const { values, positionals } = parseCommandArgs(
    args,
    { ...launchTargetOptions, ...flowVarOption, json: { type: 'boolean' }, junit: { type: 'string' }, heal: { type: 'boolean' }, ...supervisionOptions, ...plannerOptions, ...adbOptions },
    true,
  );
  const file = flowFileArgument(positionals, usage);
  const heal = mode === 'heal' || values.heal === true;
  if (values.junit !== undefined && !values.junit.trim()) throw new UsageError('--junit needs a file name, e.g. --junit flow-results.xml');
  const targets = launchTargetsOf(values);
  if (targets && mode === 'heal') throw new UsageError(`amc flow heal repairs a flow on one phone at a time (-s SERIAL): ${usage}`);
  const vars = flowVarsOf(values);
  const { FlowFileError } = await import('../main/flows/flow-file');
  let flow;
  try {
    flow = await readFlowFile(file, vars);
  } catch (error) {
    // A broken file is a usage error, as for `amc flow check`: nothing ran.
    if (!(error instanceof FlowFileError)) throw error;
    io.err(`amc flow run: ${error.message}`);
    if (values.junit) await writeJunitCheckError(values.junit, file, error.message);
    return ExitCode.usage;
  }

  if (targets) {
    const { runFlowLaunch } = await import('./flow-launch');
    return runFlowLaunch({ targets, file, flow, heal, ...(values.junit && { junit: values.junit }) }, values, io);
  }

  // Loaded lazily so `amc --help` stays fast.
  const { createFlowRunRecorder, flowRunEndOf } = await import('../main/flows/flow-run-recorder');
  const { flowRunPlanner } = await import('../main/flows/flow-planner');
  const recorder = createFlowRunRecorder(flow);
  const startedAt = new Date();
  let record: TaskRecord | undefined;
  const code = await runTaskAtTerminal(`flow ${mode}`, values, io, async ({ config, configured }) => {
    if (heal && configured.planner.info.kind !== 'ai') throw new UsageError('--heal needs a model to repair steps: turn the AI planner on in Settings (or set AI_PLANNER_ENABLED=true)');
    return { goal: flow.goal, planner: flowRunPlanner(flow, config, configured, recorder, { heal }), finished: (finished) => (record = finished) };
  });

  // The task's own end (its reason: a refused action, a stop) is the reason of the step it ended on.
  const steps = recorder.results(record ? flowRunEndOf(finishedVerdict(record), record.failureReason) : { completed: false, reason: 'the run did not start' });
  const passed = flowPassed(steps);
  if (values.json) io.out(JSON.stringify({ type: 'flow.finished', file, passed, steps }));
  else printFlowSteps(io, `Flow ${file}`, steps);
  if (values.junit) await writeJunitReport(values.junit, file, [{ goal: flow.goal, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), steps }]);
  if (mode === 'heal' && record) await writeHealedFile(file, record, steps, recorder.healed(), io);
  // The task's own code says how it ended; a flow whose model finished the goal after a step failed still failed.
  return code === ExitCode.ok && !passed ? ExitCode.failed : code;
}

/** NAME.healed.yaml beside the flow file, with the repaired steps, and the difference printed; nothing healed: nothing written. */
async function writeHealedFile(file: string, record: TaskRecord, steps: readonly FlowStepResult[], healed: ReadonlyMap<number, readonly number[]>, io: CliIo): Promise<void> {
  if (healed.size === 0) {
    io.out('No step needed repair: no healed file was written.');
    return;
  }
  const { healedFlowText } = await import('../main/flows/healed-flow-file');
  const { lineDiff } = await import('../shared/line-diff');
  const original = await readFile(file, 'utf8');
  const repaired = healedFlowText(
    original,
    record,
    [...healed].map(([index, turns]) => ({ index, turns, detail: steps[index]?.detail ?? '' })),
  );
  const target = file.replace(/(\.ya?ml)?$/i, (extension) => `.healed${extension || '.yaml'}`);
  await writeFile(target, repaired);
  io.out(`Healed flow written to ${target} (review it, then keep it in place of ${file}):`);
  for (const line of lineDiff(original, repaired)) io.out(line);
}
