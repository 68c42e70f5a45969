// @vitest-environment jsdom
// The Fleet view words what the fleet client and the workers said by their codes, in the window's language: a job's
// reason, a failed job's reason, "any free phone" and a Redis address that cannot be read.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import type { FleetViewResult } from '../../src/shared/contract';
import type { JobView } from '../../src/shared/fleet';
import { ANY_PHONE_TARGET } from '../../src/shared/fleet';
import { say } from '../../src/shared/said';
import { i18nextFor } from '../../src/shared/i18n/translate';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { FleetPanel } from '../../src/renderer/src/components/fleet/FleetPanel';
import { FakeBridge } from './fake-bridge';
import { latinSentences } from '../support/latin-sentences';
import { jobLines } from '../../src/cli/commands/submit';
import { resultOf } from '../../src/fleet/worker';
import { applyTaskEvent, newTaskRecord, type TaskEvent } from '../../src/shared/task';
import { tasksOfEachVerdict } from '../support/verdict-tasks';

afterEach(cleanup);

const queued = say('fleetJob.stillQueued', { seconds: 2 });
const failed = say('budget.steps', { count: 12 });

const job = (id: string, fields: Partial<JobView>): JobView => ({
  id,
  queue: 'amc:any',
  goal: '打开设置',
  flow: null,
  launchId: `launch-${id}`,
  target: ANY_PHONE_TARGET,
  state: 'queued',
  verdict: null,
  reason: null,
  result: null,
  submittedAt: '2026-12-06T20:00:00.000Z',
  ...fields,
});

const overview: FleetViewResult = {
  kind: 'fleet',
  address: 'redis://127.0.0.1:6390',
  overview: {
    workers: [],
    counts: { queued: 1, running: 0, done: 0, 'done-not-verified': 0, failed: 1, stopped: 0, 'looked-only': 0, interrupted: 0 },
    jobs: [
      job('waiting', { reason: queued.text, reasonSaid: queued.said }),
      job('broken', {
        state: 'failed',
        verdict: 'failed',
        reason: failed.text,
        result: {
          worker: 'desk-1',
          serial: 'R58M123',
          taskId: 'task-1',
          status: 'failed',
          verdict: 'failed',
          failureReason: failed.text,
          failureSaid: failed.said,
          result: null,
          steps: 2,
          inputTokens: 100,
          outputTokens: 20,
          costUsd: null,
          startedAt: 1_700_000_000_000,
          durationMs: 4_000,
          interruptedOn: [],
        },
      }),
    ],
  },
};

function fleetIn(language: 'en' | 'zh-CN', view: FleetViewResult) {
  render(
    <I18nextProvider i18n={i18nextFor(language)}>
      <BridgeContext.Provider value={new FakeBridge({ 'fleet.overview': async () => view })}>
        <FleetPanel />
      </BridgeContext.Provider>
    </I18nextProvider>,
  );
}

const rowOf = (id: string) => screen.getAllByTestId('fleet-job').find((row) => row.getAttribute('data-job-id') === id)!;

describe("The Fleet view's reasons", () => {
  it("Scenario: The Fleet view words a job's reasons and its target by their codes in a Chinese window", async () => {
    fleetIn('zh-CN', overview);
    await waitFor(() => expect(screen.getAllByTestId('fleet-job')).toHaveLength(2));
    const waiting = rowOf('waiting').textContent!;
    expect(waiting).toContain('仍在排队');
    expect(waiting).toContain('任意一台空闲手机');
    expect(rowOf('broken').textContent).not.toContain(failed.text);
    for (const id of ['waiting', 'broken']) expect(latinSentences(rowOf(id).textContent!), id).toEqual([]);
  });

  it('an English window keeps the English reasons', async () => {
    fleetIn('en', overview);
    await waitFor(() => expect(screen.getAllByTestId('fleet-job')).toHaveLength(2));
    expect(rowOf('waiting').textContent).toContain(queued.text);
    expect(rowOf('waiting').textContent).toContain(ANY_PHONE_TARGET);
    expect(rowOf('broken').textContent).toContain(failed.text);
  });

  it("a Redis address that cannot be read is told in the window's language", async () => {
    const notUrl = say('fleetRedis.notUrl');
    fleetIn('zh-CN', { kind: 'problem', address: null, problem: notUrl.text, problemSaid: notUrl.said });
    const problem = await screen.findByTestId('fleet-problem');
    expect(problem.textContent).toContain('Redis 地址应当形如');
    expect(problem.textContent).not.toContain(notUrl.text);
  });

  it("a job that failed on an exception shows the error's message, never its class name", async () => {
    // The worker's own summary of a task that failed on TaskFailedError (seed D7's `<ErrorName>: <message>`).
    const { events } = tasksOfEachVerdict().failed;
    const first = events[0] as Extract<TaskEvent, { type: 'task.started' }>;
    const record = events.reduce(applyTaskEvent, newTaskRecord({ id: first.taskId, goal: first.goal, serial: first.serial, planner: first.planner, maxSteps: first.maxSteps, createdAt: first.at }));
    const result = resultOf({ record }, 'desk-1', [], undefined);
    expect(result.failure?.error).toBe('TaskFailedError');
    const crashed = job('crashed', { state: 'finished', verdict: 'failed', result });
    fleetIn('zh-CN', { ...overview, overview: { ...overview.overview, jobs: [crashed] } } as FleetViewResult);
    await waitFor(() => expect(screen.getAllByTestId('fleet-job')).toHaveLength(1));
    expect(rowOf('crashed').textContent).toContain('There is no Bluetooth switch on this phone');
    expect(rowOf('crashed').textContent).not.toContain('TaskFailedError');
    const line = jobLines(crashed).join('\n');
    expect(line).toContain('There is no Bluetooth switch on this phone');
    expect(line).not.toContain('TaskFailedError');
  });
});
