// @vitest-environment jsdom
// "Run again without the model" in History: offered for a success that acted, sent as tasks.replay with the task's
// id and phone, and the new task shown as that phone's current task.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskSummary } from '../../src/shared/contract';
import { newTaskRecord } from '../../src/shared/task';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { HistoryPanel } from '../../src/renderer/src/components/history/HistoryPanel';
import { TaskResultCard } from '../../src/renderer/src/components/timeline/TaskResultCard';
import { useAppStore } from '../../src/renderer/src/store/app-store';
import { useDevicesStore } from '../../src/renderer/src/store/devices-store';
import { useHistoryStore } from '../../src/renderer/src/store/history-store';
import { useTaskStore } from '../../src/renderer/src/store/task-store';
import { FakeBridge } from './fake-bridge';

const summary = (overrides: Partial<TaskSummary>): TaskSummary => ({
  id: 'task-1',
  goal: 'Turn off Wi-Fi',
  serial: 'R58M123',
  status: 'completed',
  failureReason: null,
  planner: { kind: 'ai', provider: 'anthropic', transport: 'direct', model: 'claude-test', exposesReasoning: true },
  steps: 3,
  createdAt: 1_700_000_000_000,
  finishedAt: 1_700_000_010_000,
  durationMs: 10_000,
  usage: { inputTokens: 100, outputTokens: 10 },
  ...overrides,
});

beforeEach(() => {
  useDevicesStore.setState({ ...useDevicesStore.getInitialState(), names: {} }, true);
  useHistoryStore.setState(useHistoryStore.getInitialState(), true);
});
afterEach(cleanup);

describe('replay from History', () => {
  it('Scenario: History offers Run again without the model for a success that acted', async () => {
    const replayed = { ...newTaskRecord({ id: 'task-2', goal: 'Turn off Wi-Fi', serial: 'R58M123', planner: { kind: 'replay', exposesReasoning: false }, maxSteps: 30, createdAt: 1 }), status: 'running' as const };
    const bridge = new FakeBridge({ 'tasks.replay': () => replayed });
    useDevicesStore.getState().setList({ devices: [{ serial: 'R58M123', state: 'device', connection: 'tcp' }], adbServer: '127.0.0.1:5037', problem: null });
    useHistoryStore.getState().setListing({
      tasks: [summary({}), summary({ id: 'task-0', goal: 'What is my number?', status: 'failed' }), summary({ id: 'task-9', goal: 'Look', planner: { kind: 'stub', exposesReasoning: false } })],
      damaged: [],
    });
    render(
      <BridgeContext.Provider value={bridge}>
        <HistoryPanel />
      </BridgeContext.Provider>,
    );
    // Only the success with actions by a planner that acts can be replayed: each row's menu says.
    const replaysIn = (goal: string) => {
      act(() => fireEvent.click(screen.getByRole('button', { name: `Actions for "${goal}"` })));
      const items = screen.queryAllByRole('menuitem', { name: /^Run again without the model/ });
      if (items.length === 0) act(() => fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' }));
      return items;
    };
    expect(replaysIn('What is my number?')).toEqual([]);
    expect(replaysIn('Look')).toEqual([]);
    const items = replaysIn('Turn off Wi-Fi');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Run again without the model: "Turn off Wi-Fi"']);
    act(() => fireEvent.click(items[0]!));
    await waitFor(() => expect(useTaskStore.getState().bySerial.R58M123?.task.id).toBe('task-2'));
    expect(bridge.callsOf('tasks.replay')).toEqual([{ taskId: 'task-1', serial: 'R58M123' }]);
    expect(useAppStore.getState().view).toBe('task');
  });
});

describe('the result card: two ways to run again', () => {
  it('Scenario: The result card names the replay that lets the model fix differences apart, and only it asks for the model', async () => {
    const replayed = { ...newTaskRecord({ id: 'task-3', goal: 'Turn off Wi-Fi', serial: 'R58M123', planner: { kind: 'replay', exposesReasoning: false }, maxSteps: 30, createdAt: 1 }), status: 'running' as const };
    const bridge = new FakeBridge({ 'tasks.replay': () => replayed });
    useDevicesStore.getState().setList({ devices: [{ serial: 'R58M123', state: 'device', connection: 'tcp' }], adbServer: '127.0.0.1:5037', problem: null });
    const done = {
      ...newTaskRecord({ id: 'task-1', goal: 'Turn off Wi-Fi', serial: 'R58M123', planner: summary({}).planner, maxSteps: 30, createdAt: 1 }),
      status: 'completed' as const,
      page: { from: 0, turnCount: 2, actionCount: 1 },
    };
    render(
      <BridgeContext.Provider value={bridge}>
        <TaskResultCard task={done} />
      </BridgeContext.Provider>,
    );
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Run again without the model' })));
    await waitFor(() => expect(bridge.callsOf('tasks.replay')).toHaveLength(1));
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Run again, let the model fix differences' })));
    await waitFor(() => expect(bridge.callsOf('tasks.replay')).toHaveLength(2));
    // Without the model: nothing in the request lets it in. The other says so plainly, and only it does.
    expect(bridge.callsOf('tasks.replay')).toEqual([
      { taskId: 'task-1', serial: 'R58M123' },
      { taskId: 'task-1', serial: 'R58M123', letModelFix: true },
    ]);
  });
});
