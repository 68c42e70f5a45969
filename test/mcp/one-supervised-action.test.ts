// One supervised action: an MCP agent's `act` and a task's turn go through the same unit, so the same action on
// the same phone leaves the same policy, person, outcome and verification events. Real adb server, adbkit,
// Observer and Executor against the demo phone; real per-phone locks in a temporary home.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../src/shared/settings';
import type { TaskEvent } from '../../src/shared/task';
import { AdbClient } from '../../src/core/device/adb-client';
import { PhoneAccess } from '../../src/core/headless/phone-access';
import { createDeviceLocks } from '../../src/core/storage/device-lock';
import { Observer } from '../../src/core/perception/observer';
import { TaskRunner } from '../../src/core/runtime/task-runner';
import { DEFAULT_TASK_POLICIES } from '../../src/core/runtime/task-policies';
import type { SupervisorPort } from '../../src/core/runtime/supervisor';
import { AgentSession } from '../../src/mcp/agent-session';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { act, done, ScriptedPlanner, step } from '../core/runtime/doubles';

let harness: AdbHarness;
let adb: AdbClient;
let home: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  home = await mkdtemp(path.join(tmpdir(), 'amc-one-action-'));
}, 60_000);
afterAll(async () => {
  await harness?.stop();
  await rm(home, { recursive: true, force: true });
});

const SUPERVISED = new Set<TaskEvent['type']>(['guard.decided', 'person.asked', 'person.answered', 'step.executed', 'step.verified']);

/** The events of supervised actions, without what differs by nature between two runs (ids, clocks, durations). */
function comparable(events: TaskEvent[]): unknown[] {
  return events
    .filter((event) => SUPERVISED.has(event.type))
    .map((event) => {
      const { taskId: _taskId, at: _at, ...rest } = event;
      if ('requestId' in rest) rest.requestId = 'request';
      if ('executeMs' in rest) rest.executeMs = 0;
      if ('outcome' in rest) rest.outcome = { ...rest.outcome, durationMs: 0 };
      return rest;
    });
}

/** A person at hand who says yes to this action only. */
const sayingYes: SupervisorPort = { ask: async () => ({ reply: { kind: 'allow', scope: 'once' }, by: 'person' }) };
const NETWORK = 'Network & internet';

describe('one supervised action', () => {
  it("Scenario: An MCP agent's act and a task's turn leave the same supervision events", async () => {
    const phone = new PhoneAccess(async () => adb);
    const locks = createDeviceLocks(home);

    await harness.reset();
    const planner = new ScriptedPlanner((input) => {
      if (input.step === 1) return act(step('launch_app', { app: 'Settings' }));
      const network = input.scene?.elements.find((element) => element.text?.startsWith(NETWORK));
      return input.step === 2 && network ? act(step('tap', { element_id: network.id })) : done();
    });
    const runner = new TaskRunner({
      observer: new Observer(adb, { screenshot: false }),
      executor: phone.executorPort,
      plannerSource: async () => ({ planner, maxSteps: 10, policies: { ...DEFAULT_TASK_POLICIES, confirmation: 'every' } }),
      supervisor: sayingYes,
      deviceLock: locks,
    });
    const taskEvents: TaskEvent[] = [];
    runner.on((event) => taskEvents.push(event));
    const record = await runner.run({ serial: harness.serial, goal: 'Open the network settings' });
    expect(record.status).toBe('completed');
    expect((await harness.state()).activity).toMatch(/com\.android\.settings/);

    await harness.reset();
    const agentEvents: TaskEvent[] = [];
    const agent = { phone, settings: async () => defaultSettings(), checkReady: async () => undefined, locks, installedApps: async () => [] };
    const session = new AgentSession(agent, { id: 'parity', client: () => 'parity test', startedAt: Date.now(), idleTimeoutMs: null }, (event) => agentEvents.push(event));
    const confirmation = { mode: 'every' as const, ask: async () => true };
    try {
      await session.act(harness.serial, { name: 'launch_app', args: { app: 'Settings' } }, { confirmation });
      const network = (await session.observe(harness.serial, { screenshot: false })).scene?.elements.find((element) => element.text?.startsWith(NETWORK));
      expect(network).toBeDefined();
      const tapped = await session.act(harness.serial, { name: 'tap', args: { element_id: network!.id } }, { confirmation });
      expect(tapped.verification).toEqual({ status: 'verified', check: 'screen-changed', fact: 'the screen changed', said: { code: 'verify.screenChanged', values: {} } });
    } finally {
      await session.releaseAll();
    }

    const fromTask = comparable(taskEvents);
    expect(fromTask.map((event) => (event as TaskEvent).type)).toEqual([
      ...['guard.decided', 'person.asked', 'person.answered', 'step.executed', 'step.verified'],
      ...['guard.decided', 'person.asked', 'person.answered', 'step.executed', 'step.verified'],
    ]);
    expect(fromTask[4]).toMatchObject({ verification: { status: 'verified', check: 'app-in-foreground' } });
    expect(comparable(agentEvents)).toEqual(fromTask);
  }, 90_000);
});
