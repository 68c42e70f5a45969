// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskSummary } from '../../src/shared/contract';
import type { DeviceSummary } from '../../src/shared/device';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { createKeyboardQueue, type KeyboardInput } from '../../src/renderer/src/components/devices/keyboard-queue';
import { matchesFilter, NO_FILTER } from '../../src/renderer/src/components/history/history-filter';
import { HistoryPanel } from '../../src/renderer/src/components/history/HistoryPanel';
import { useDevicesStore } from '../../src/renderer/src/store/devices-store';
import { RECENT_GOALS_PER_PHONE, recentGoalsKey, useGoalStore } from '../../src/renderer/src/store/goal-store';
import { useHistoryStore } from '../../src/renderer/src/store/history-store';
import { FakeBridge } from './fake-bridge';

const phone = (serial: string, extra: Partial<DeviceSummary> = {}): DeviceSummary => ({ serial, state: 'device', connection: 'tcp', ...extra });
const listOf = (...devices: DeviceSummary[]) => ({ devices, adbServer: '127.0.0.1:5037', problem: null });

const summary = (overrides: Partial<TaskSummary>): TaskSummary => ({
  id: 'task-1',
  goal: 'Open the contacts app',
  serial: 'R58M123',
  status: 'completed',
  failureReason: null,
  planner: { kind: 'ai', provider: 'anthropic', transport: 'direct', model: 'claude-test', exposesReasoning: true },
  steps: 1,
  createdAt: 1_700_000_000_000,
  finishedAt: 1_700_000_010_000,
  durationMs: 10_000,
  usage: { inputTokens: 100, outputTokens: 10 },
  ...overrides,
});

beforeEach(() => {
  localStorage.clear();
  useDevicesStore.setState({ ...useDevicesStore.getInitialState(), names: {} }, true);
  useGoalStore.setState({ ...useGoalStore.getInitialState(), draft: '', recent: {} }, true);
  useHistoryStore.setState(useHistoryStore.getInitialState(), true);
});
afterEach(cleanup);

describe('the selected phone', () => {
  it('Scenario: The selection never moves to another phone by itself', () => {
    const store = useDevicesStore.getState;
    store().setList(listOf(phone('A', { model: 'Pixel 8' }), phone('B', { name: 'Demo phone' })));
    expect(store().selectedSerial).toBe('A');
    store().select('B');
    // B goes away: nothing is selected in its place, and the store says which phone went.
    store().setList(listOf(phone('A', { model: 'Pixel 8' })));
    expect(store().selectedSerial).toBeNull();
    expect(store().vanishedSerial).toBe('B');
    store().setList(listOf(phone('A', { model: 'Pixel 8' }), phone('C')));
    expect(store().selectedSerial).toBeNull();
    // The same phone back is the person's choice again.
    store().setList(listOf(phone('A', { model: 'Pixel 8' }), phone('B', { name: 'Demo phone' })));
    expect([store().selectedSerial, store().vanishedSerial]).toEqual(['B', null]);
    // Names outlive the phones (History shows them), and survive a reload.
    expect(store().names).toEqual({ A: 'Pixel 8', B: 'Demo phone' });
    expect(JSON.parse(localStorage.getItem('amc.phoneNames')!)).toEqual({ A: 'Pixel 8', B: 'Demo phone' });
  });
});

describe('recent goals', () => {
  it('Scenario: Recent goals keep the newest 20 per phone and can be removed', () => {
    const goals = useGoalStore.getState;
    for (let n = 1; n <= 25; n++) goals().remember('A', `Goal ${n}`);
    goals().remember('A', 'Goal 10');
    goals().remember('B', 'Only on B');
    expect(goals().recent.A).toHaveLength(RECENT_GOALS_PER_PHONE);
    expect(goals().recent.A!.slice(0, 3)).toEqual(['Goal 10', 'Goal 25', 'Goal 24']);
    expect(goals().recent.A).not.toContain('Goal 5');
    expect(goals().recent.B).toEqual(['Only on B']);
    goals().forget('A', 'Goal 25');
    expect(goals().recent.A!.slice(0, 2)).toEqual(['Goal 10', 'Goal 24']);
    expect(JSON.parse(localStorage.getItem('amc.recentGoals')!).A).toEqual(goals().recent.A);
    // A demo phone gets a new serial at every start of the app: its goals go by its name.
    expect(recentGoalsKey({ serial: '127.0.0.1:5601', name: 'Demo phone' })).toBe(recentGoalsKey({ serial: '127.0.0.1:5777', name: 'Demo phone' }));
    expect(recentGoalsKey({ serial: 'R58M123' })).toBe('R58M123');
  });
});

describe('typing on the mirror', () => {
  it('Scenario: Typed keys reach the phone in order, fast typing joined into one text', async () => {
    const sent: KeyboardInput[] = [];
    const pending: Array<() => void> = [];
    const queue = createKeyboardQueue(
      (input) => {
        sent.push(input);
        return new Promise<void>((resolve) => pending.push(resolve));
      },
      () => undefined,
    );
    queue.push({ kind: 'text', text: 'H' });
    // While "H" is on its way, the rest waits and the characters join.
    queue.push({ kind: 'text', text: 'i' });
    queue.push({ kind: 'text', text: '!' });
    queue.push({ kind: 'key', key: 'enter' });
    queue.push({ kind: 'text', text: 'ë' });
    const settle = async () => {
      while (pending.length > 0) {
        pending.shift()!();
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    };
    await settle();
    expect(sent).toEqual([
      { kind: 'text', text: 'H' },
      { kind: 'text', text: 'i!' },
      { kind: 'key', key: 'enter' },
      { kind: 'text', text: 'ë' },
    ]);
  });

  it('Scenario: After a failed key the rest of what was typed is dropped and the failure reported', async () => {
    const errors: unknown[] = [];
    const sent: KeyboardInput[] = [];
    let fail: (error: Error) => void = () => undefined;
    const queue = createKeyboardQueue(
      (input) => {
        sent.push(input);
        return sent.length === 1 ? new Promise((_resolve, reject) => (fail = reject)) : Promise.resolve();
      },
      (error) => errors.push(error),
    );
    queue.push({ kind: 'text', text: 'a' });
    queue.push({ kind: 'text', text: 'b' });
    fail(new Error('A task is running on this phone.'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual([{ kind: 'text', text: 'a' }]);
    expect(errors).toHaveLength(1);
  });
});

describe('history search and run again', () => {
  it('Scenario: The History filter matches every word of the goal in any case, with status, phone and planner', () => {
    const task = summary({ goal: 'Send Alice a message about the Zebra' });
    expect(matchesFilter(task, { ...NO_FILTER, text: 'zebra ALICE' })).toBe(true);
    expect(matchesFilter(task, { ...NO_FILTER, text: 'zebra bob' })).toBe(false);
    expect(matchesFilter(task, { ...NO_FILTER, status: 'failed' })).toBe(false);
    expect(matchesFilter(task, { ...NO_FILTER, serial: 'R58M123', planner: 'ai' })).toBe(true);
    expect(matchesFilter(task, { ...NO_FILTER, planner: 'stub' })).toBe(false);
  });

  it('Scenario: History search finds a goal however it is hyphenated, spaced or accented', () => {
    const wifi = summary({ goal: 'Turn on Wi-Fi' });
    for (const text of ['wifi', 'WIFI', 'wi-fi', 'Wi Fi', 'turn on wifi']) expect(matchesFilter(wifi, { ...NO_FILTER, text }), text).toBe(true);
    expect(matchesFilter(wifi, { ...NO_FILTER, text: 'bluetooth' })).toBe(false);
    expect(matchesFilter(summary({ goal: 'Call José' }), { ...NO_FILTER, text: 'jose' })).toBe(true);
    expect(matchesFilter(summary({ goal: 'Send an email' }), { ...NO_FILTER, text: 'e-mail' })).toBe(true);
  });

  it('Scenario: Run again with the phone gone puts the goal in the goal box and names the missing phone', () => {
    const bridge = new FakeBridge({});
    useDevicesStore.setState({ names: { R58M123: 'Pixel 8' } });
    useDevicesStore.getState().setList(listOf(phone('emulator-5554')));
    useHistoryStore.getState().setListing({ tasks: [summary({})], damaged: [] });
    render(
      <BridgeContext.Provider value={bridge}>
        <HistoryPanel />
      </BridgeContext.Provider>,
    );
    expect(screen.getByTestId('history-row').textContent).toContain('Pixel 8');
    expect(screen.getByTestId('history-model').textContent).toBe('claude-test');
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Actions for "Open the contacts app"' })));
    act(() => fireEvent.click(screen.getByRole('menuitem', { name: 'Run "Open the contacts app" again' })));
    expect(screen.getByTestId('run-again-notice').textContent).toBe(
      'Pixel 8 is not connected, so the goal is in the goal box: pick a phone and press Run.',
    );
    expect(useGoalStore.getState().draft).toBe('Open the contacts app');
    expect(bridge.callsOf('tasks.run')).toEqual([]);
    // Still the person's choice: the other phone was not picked for them.
    expect(useDevicesStore.getState().selectedSerial).toBe('emulator-5554');
  });
});
