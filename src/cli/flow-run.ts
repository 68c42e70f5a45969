import { ExitCode, UsageError, type CliIo } from './command';
import { parseCommandArgs } from './args';
import { ADB_OPTIONS_USAGE, adbOptions } from './commands/devices';
import { PLANNER_OPTIONS_USAGE, plannerOptions } from './planner-options';
import { SUPERVISION_OPTIONS_USAGE, supervisionOptions } from './supervision-options';
import { runTaskAtTerminal } from './task-at-terminal';
import { FLOW_VAR_USAGE, flowFileArgument, flowVarOption, flowVarsOf, readFlowFile } from './flow-files';
import { printFlowSteps, writeJunitCheckError, writeJunitReport, writeJunitXml } from './flow-steps';
import { terminalWords } from './terminal-words';
import { flowPassed, type Flow, type FlowStepResult } from '../shared/flow';
import { saidWords } from '../shared/supervision-words';
import type { FlowRunReport } from '../core/flows/flow-run-report';
import type { TaskEvent, TaskRecord } from '../shared/task';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LAUNCH_TARGETS_USAGE, launchTargetOptions, launchTargetsOf } from './launch-targets';

export const FLOW_RUN_USAGE = `amc flow run FILE|FOLDER [--include-tags A,B] [--exclude-tags C] ${LAUNCH_TARGETS_USAGE} ${FLOW_VAR_USAGE} [--heal] [--json] [--junit FILE] ${SUPERVISION_OPTIONS_USAGE} ${PLANNER_OPTIONS_USAGE} ${ADB_OPTIONS_USAGE}`;
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
    { ...launchTargetOptions, ...flowVarOption, json: { type: 'boolean' }, junit: { type: 'string' }, heal: { type: 'boolean' }, 'include-tags': { type: 'string' }, 'exclude-tags': { type: 'string' }, ...supervisionOptions, ...plannerOptions, ...adbOptions },
    true,
  );
  const file = flowFileArgument(positionals, usage);
  const heal = mode === 'heal' || values.heal === true;
  if (values.junit !== undefined && !values.junit.trim()) throw new UsageError(terminalWords().t('cli:usageError.junitNeedsFile'));
  const targets = launchTargetsOf(values);
  if (targets && mode === 'heal') throw new UsageError(terminalWords().t('cli:usageError.healOnePhone', { usage }));
  const vars = flowVarsOf(values);
  const folder = await stat(file).then((info) => info.isDirectory(), () => false);
  if (!folder && (values['include-tags'] !== undefined || values['exclude-tags'] !== undefined)) throw new UsageError(terminalWords().t('cli:usageError.tagsNeedFolder'));
  if (folder) {
    if (heal || targets) throw new UsageError(terminalWords().t('cli:usageError.folderOnOnePhone', { usage }));
    return runFlowFolder(file, values, io, vars);
  }
  const { FlowFileError } = await import('../core/flows/flow-file');
  let flow;
  try {
    flow = await readFlowFile(file, vars);
  } catch (error) {
    // A broken file is a usage error, as for `amc flow check`: nothing ran.
    if (!(error instanceof FlowFileError)) throw error;
    const worded = error.wordedIn(terminalWords());
    io.err(`amc flow run: ${worded}`);
    if (values.junit) await writeJunitCheckError(values.junit, file, worded);
    return ExitCode.usage;
  }

  if (targets) {
    const { runFlowLaunch } = await import('./flow-launch');
    return runFlowLaunch({ targets, file, flow, heal, ...(values.junit && { junit: values.junit }) }, values, io);
  }

  const run = await runOneFlow(file, flow, values, io, mode, heal, screenshotFolder(values.junit));
  if (values.junit) await writeJunitReport(values.junit, file, [run.report], terminalWords());
  if (mode === 'heal' && run.record) await writeHealedFile(file, run.record, run.report.steps, run.healed, io);
  return run.code;
}

/** Where a run's screenshots go: beside the JUnit file when there is one (the files a CI job keeps), else the current folder. */
const screenshotFolder = (junit: string | undefined): string => (junit ? path.dirname(path.resolve(junit)) : process.cwd());

type RunValues = Parameters<typeof runTaskAtTerminal>[1] & { json?: boolean | undefined };

/** One flow file on one phone: its steps printed, and how it went (the exit code, the JUnit suite, the task). */
async function runOneFlow(file: string, flow: Flow, values: RunValues, io: CliIo, mode: 'run' | 'heal', heal: boolean, outputFolder: string) {
  // Loaded lazily so `amc --help` stays fast.
  const { foldFlowRun } = await import('../core/flows/flow-run-fold');
  const { flowRunPlanner } = await import('../core/flows/flow-planner');
  const { createFlowScreenshots } = await import('../core/flows/flow-screenshots');
  const events: TaskEvent[] = [];
  const startedAt = new Date();
  let record: TaskRecord | undefined;
  const code = await runTaskAtTerminal(`flow ${mode}`, values, io, async ({ config, configured, phone }) => {
    if (heal && configured.planner.info.kind !== 'ai') throw new UsageError(terminalWords().t('cli:usageError.healNeedsModel'));
    const screenshots = createFlowScreenshots(outputFolder, phone);
    return { goal: flow.goal, planner: flowRunPlanner(flow, config, configured, { heal, screenshots }), finished: (finished) => (record = finished), heard: (event) => events.push(event) };
  });

  // The task's own end (its reason: a refused action, a stop) is the reason of the step it ended on.
  const { steps, healed } = foldFlowRun(flow, events);
  const passed = flowPassed(steps);
  if (values.json) io.out(JSON.stringify({ type: 'flow.finished', file, passed, steps }));
  else printFlowSteps(io, terminalWords().t('cli:flowSteps.title', { file }), steps, terminalWords());
  const report = { goal: flow.goal, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), steps };
  // The task's own code says how it ended; a flow whose model finished the goal after a step failed still failed.
  return { code: code === ExitCode.ok && !passed ? ExitCode.failed : code, passed, report, record, healed };
}

/**
 * `amc flow run FOLDER`: a Maestro workspace's flows (flow-folder.ts picks them by config.yaml and tags), one after
 * another on one phone. Every file is read first, so a broken one refuses the run before anything runs; exit 0 only
 * when every flow passed.
 */
async function runFlowFolder(folder: string, values: RunValues & { junit?: string | undefined; 'include-tags'?: string | undefined; 'exclude-tags'?: string | undefined }, io: CliIo, vars: Record<string, string>): Promise<number> {
  const { selectFolderFlows } = await import('./flow-folder');
  const { FlowFileError } = await import('../core/flows/flow-file');
  const selection = await selectFolderFlows(folder, { includeTags: values['include-tags'], excludeTags: values['exclude-tags'] });
  const flows: { file: string; flow: Flow }[] = [];
  let broken = false;
  for (const file of selection.files) {
    try {
      flows.push({ file, flow: await readFlowFile(file, vars) });
    } catch (error) {
      if (!(error instanceof FlowFileError)) throw error;
      io.err(`amc flow run: ${error.wordedIn(terminalWords())}`);
      broken = true;
    }
  }
  if (broken) return ExitCode.usage;
  const { junitXml } = await import('../core/flows/junit-report');
  const suites: FlowRunReport[] = [];
  let passed = 0;
  let code: number = ExitCode.ok;
  for (const [at, { file, flow }] of flows.entries()) {
    const run = await runOneFlow(file, flow, values, io, 'run', false, screenshotFolder(values.junit));
    suites.push({ ...run.report, name: path.relative(folder, file).replace(/\.ya?ml$/i, '') });
    if (run.passed) passed += 1;
    else if (code === ExitCode.ok) code = run.code === ExitCode.ok ? ExitCode.failed : run.code;
    if (!run.passed && !selection.continueOnFailure && at < flows.length - 1) {
      io.out(terminalWords().t('cli:flowSteps.notRunAfterFailure', { files: flows.slice(at + 1).map((next) => next.file).join(', ') }));
      break;
    }
  }
  io.out(terminalWords().t('cli:flowSteps.folder', { folder, passed, count: flows.length }));
  if (values.junit) await writeJunitXml(values.junit, junitXml(suites));
  return code;
}

/** NAME.healed.yaml beside the flow file, with the repaired steps, and the difference printed; nothing healed: nothing written. */
async function writeHealedFile(file: string, record: TaskRecord, steps: readonly FlowStepResult[], healed: ReadonlyMap<number, readonly number[]>, io: CliIo): Promise<void> {
  if (healed.size === 0) {
    io.out(terminalWords().t('cli:flowSteps.nothingHealed'));
    return;
  }
  const { healedFlowText } = await import('../core/flows/healed-flow-file');
  const { lineDiff } = await import('../shared/line-diff');
  const original = await readFile(file, 'utf8');
  const words = terminalWords();
  const detailOf = (step: FlowStepResult | undefined) => (step ? saidWords(step.detail, step.said, words) : '');
  const repaired = healedFlowText(
    original,
    record,
    [...healed].map(([index, turns]) => ({ index, turns, detail: detailOf(steps[index]) })),
    words,
  );
  const target = file.replace(/(\.ya?ml)?$/i, (extension) => `.healed${extension || '.yaml'}`);
  await writeFile(target, repaired);
  io.out(terminalWords().t('cli:flowSteps.healedWritten', { target, file }));
  for (const line of lineDiff(original, repaired)) io.out(line);
}
