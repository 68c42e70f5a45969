// One task of each verdict walked through every reader that shows how a task ended: the reducer, History (its list
// read from a file's first and last lines, and the whole record), the HTML report, `amc run`'s summary line and exit
// code, the launch table, the fleet's result and counts, a flow's end, and MCP's task_status (the real server over
// stdio, reading the same history). Each must say the same verdict.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskStore } from '../../src/core/storage/task-store';
import { renderTaskReport } from '../../src/core/storage/html-report';
import { finishedLine } from '../../src/cli/task-lines';
import { TASK_EXIT_CODES } from '../../src/cli/command';
import { launchRowOf } from '../../src/shared/launch';
import { resultOf } from '../../src/fleet/worker';
import { jobCounts, jobVerdict } from '../../src/shared/fleet';
import { flowRunEnd } from '../../src/core/flows/flow-run-fold';
import { taskOutcomeKind } from '../../src/shared/task-words';
import { taskVerdict, TASK_VERDICTS, verdictOfEvents, type TaskVerdict } from '../../src/shared/verdict';
import type { TaskEvent } from '../../src/shared/task';
import { amcBin } from '../support/cli';
import { tasksOfEachVerdict } from '../support/verdict-tasks';

/** What `amc run` prints first on its summary line, and its exit code, per verdict. */
const CLI: Record<TaskVerdict, { line: RegExp; code: number }> = {
  done: { line: /^Done \(1 action, /, code: 0 },
  'done-not-verified': { line: /^Done, not verified: no action was taken in this task.* \(0 actions, .*The model said: Calling Zed Quill$/, code: 4 },
  failed: { line: /^Failed \(1 action, .*\): There is no Bluetooth switch on this phone$/, code: 1 },
  stopped: { line: /^Stopped \(1 action, .*\): stopped by the user$/, code: 130 },
  'looked-only': { line: /^Looked at the screen only — the AI planner is off \(1 action, /, code: 3 },
  interrupted: { line: /^Interrupted \(1 action, .*\): interrupted: the app was closed$/, code: 1 },
};

/** The word the report and History show, per verdict. */
const WORD: Record<TaskVerdict, string> = {
  done: 'done',
  'done-not-verified': 'done, not verified',
  failed: 'failed',
  stopped: 'stopped',
  'looked-only': 'looked only',
  interrupted: 'interrupted',
};

const tasks = tasksOfEachVerdict();
let home: string;
let agent: Client;

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'amc-verdict-readers-'));
  const store = createTaskStore(home);
  for (const task of Object.values(tasks)) for (const event of task.events) await store.append(event);
  await store.close();
  agent = new Client({ name: 'verdict-readers', version: '1.0.0' });
  await agent.connect(new StdioClientTransport({ command: process.execPath, args: [amcBin, 'mcp'], env: { PATH: process.env.PATH ?? '', AMC_HOME: home, AMC_LANGUAGE: 'en' }, stderr: 'pipe' }));
}, 60_000);

afterAll(async () => {
  await agent?.close().catch(() => undefined);
  if (home) await rm(home, { recursive: true, force: true });
});

const finishedOf = (events: readonly TaskEvent[]) => events.find((event): event is Extract<TaskEvent, { type: 'task.finished' }> => event.type === 'task.finished')!;
const startedOf = (events: readonly TaskEvent[]) => events[0] as Extract<TaskEvent, { type: 'task.started' }>;
const taskStatus = async (id: string) => JSON.parse(((await agent.callTool({ name: 'task_status', arguments: { task_id: id } })) as CallToolResult).content.map((part) => (part.type === 'text' ? part.text : '')).join('')) as { verdict: string };

describe('one verdict, every reader', { timeout: 120_000 }, () => {
  it('Scenario: One task of each verdict reads the same in every reader', async () => {
    const store = createTaskStore(home);
    const listing = await store.list();
    const seen: Record<string, Record<string, unknown>> = {};
    const jobs: Parameters<typeof jobCounts>[0][number][] = [];
    for (const verdict of TASK_VERDICTS) {
      const { events } = tasks[verdict];
      const id = startedOf(events).taskId;
      const record = (await store.get(id))!;
      const summary = listing.tasks.find((task) => task.id === id)!;
      const report = renderTaskReport(record);
      const line = finishedLine(finishedOf(events), startedOf(events).planner);
      const fleet = resultOf({ record }, 'worker-1', [], undefined);
      const job = { state: 'finished' as const, result: fleet };
      jobs.push(job);
      seen[verdict] = {
        reducer: verdictOfEvents(events),
        history: taskOutcomeKind(summary),
        record: taskVerdict(record),
        report: /<dd data-verdict="([a-z-]+)"><span class="\w+">([^<]+)<\/span>/.exec(report)?.slice(1),
        cli: CLI[verdict].line.test(line) ? verdict : line,
        exit: TASK_EXIT_CODES[verdict],
        launch: launchRowOf(record).outcome,
        fleet: jobVerdict(job),
        flowEnd: flowRunEnd(events, 'the run did not start').completed,
        mcp: (await taskStatus(id)).verdict,
      };
      expect(seen[verdict], verdict).toEqual({
        reducer: verdict,
        history: verdict,
        record: verdict,
        report: [verdict, WORD[verdict]],
        cli: verdict,
        exit: CLI[verdict].code,
        launch: verdict,
        fleet: verdict,
        flowEnd: verdict === 'done',
        mcp: verdict,
      });
    }
    // The fleet counts each verdict apart: one of each.
    expect(jobCounts(jobs)).toEqual({ queued: 0, running: 0, done: 1, 'done-not-verified': 1, failed: 1, stopped: 1, 'looked-only': 1, interrupted: 1 });
    await store.close();
  });
});
