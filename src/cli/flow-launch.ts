// `amc flow run FILE --all` / `--group NAME`: one flow on several local phones at once, as `amc run --all` carries out
// a goal (one task per phone, each with its own lock and outcome, under one launch id), each phone's run watched on
// its own so the end shows every phone's step verdicts.
import { ExitCode, TASK_EXIT_CODES, type CliIo } from './command';
import { adbForTask } from './commands/devices';
import { configuredPlannerFor, maxStepsOf, plannerOverrides } from './planner-options';
import { allowedAppsOf, presetAnswers } from './supervision-options';
import type { TaskAtTerminalValues } from './task-at-terminal';
import type { Flow } from '../shared/flow';
import type { TaskEvent } from '../shared/task';
import type { LaunchTargets } from '../shared/device-groups';
import { launchOutcome, type LaunchRow } from '../shared/launch';
import type { FlowStepResult } from '../core/flows/flow-run-report';
import { printFlowSteps, writeJunitReport } from './flow-steps';
import { terminalWords } from './terminal-words';

export interface FlowLaunch {
  targets: LaunchTargets;
  file: string;
  flow: Flow;
  junit?: string;
  /** `--heal`: a step that does not match is repaired by the model (see flowRunPlanner). */
  heal?: boolean;
}

/** One phone's part: its launch row and how each of the flow's steps went there. */
export interface FlowLaunchPhone {
  row: LaunchRow;
  passed: boolean;
  steps: FlowStepResult[];
}

/** Exit 0 only when every phone passed every step; otherwise the phones' shared outcome's code, or 1. */
export async function runFlowLaunch(launch: FlowLaunch, values: TaskAtTerminalValues, io: CliIo): Promise<number> {
  const { flow, file } = launch;
  const maxSteps = maxStepsOf(values);
  const allowedApps = allowedAppsOf(values);
  const { config, configured } = await configuredPlannerFor(plannerOverrides(values));
  const adb = await adbForTask(values, config.settings);
  const { launchTasks, launchTable } = await import('./run-launch');
  const { foldFlowRun } = await import('../core/flows/flow-run-fold');
  const { flowRunPlanner } = await import('../core/flows/flow-planner');
  const { flowPassed } = await import('../core/flows/flow-run-report');

  const plannerFor = () => flowRunPlanner(flow, config, configured, { heal: launch.heal === true });
  // Each phone's task's events, by task: its report is their fold.
  const eventsOf = new Map<string, TaskEvent[]>();
  const heard = (event: TaskEvent) => {
    const events = eventsOf.get(event.taskId) ?? [];
    events.push(event);
    eventsOf.set(event.taskId, events);
  };
  const startedAt = new Date();
  const request = {
    command: 'flow run',
    targets: launch.targets,
    goal: flow.goal,
    answers: presetAnswers(values),
    yes: values.yes ?? false,
    json: values.json ?? false,
    plannerFor,
    heard,
    ...(maxSteps && { maxSteps }),
    ...(allowedApps && { allowedApps }),
  };
  const { launchId, rows } = await launchTasks(request, io, adb, config, configured);

  const phones = rows.map((row): FlowLaunchPhone => {
    // A phone whose task never started has no events: its first step carries why, the others did not run.
    const { steps } = foldFlowRun(flow, (row.taskId && eventsOf.get(row.taskId)) || [], row.reason ?? 'the run did not start');
    return { row, passed: row.outcome === 'done' && flowPassed(steps), steps };
  });
  const passed = phones.filter((phone) => phone.passed).length;
  if (values.json) io.out(JSON.stringify({ type: 'flow.launch.finished', file, launchId, passed: passed === phones.length, phones }));
  else {
    for (const line of launchTable(rows)) io.out(line);
    const words = terminalWords();
    for (const phone of phones) printFlowSteps(io, words.t('cli:flowSteps.titleOn', { file, serial: phone.row.serial }), phone.steps, words);
    io.out(words.t('cli:flowSteps.phonesPassed', { passed, count: phones.length }));
  }
  if (launch.junit) {
    const durationMs = Date.now() - startedAt.getTime();
    // One testsuite per phone, named after it, so a CI page shows which phone failed which step.
    const reports = phones.map((phone) => ({ device: phone.row.serial, goal: flow.goal, startedAt: startedAt.toISOString(), durationMs: phone.row.durationMs || durationMs, steps: phone.steps }));
    await writeJunitReport(launch.junit, file, reports);
  }
  if (passed === phones.length) return ExitCode.ok;
  const code = TASK_EXIT_CODES[launchOutcome(rows)];
  // Every task done, yet a step failed somewhere (the model finished the goal after it): the flow still failed.
  return code === ExitCode.ok ? ExitCode.failed : code;
}
