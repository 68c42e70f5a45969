// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/renderer/src/App';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { useAppStore } from '../../src/renderer/src/store/app-store';
import { useDevicesStore } from '../../src/renderer/src/store/devices-store';
import { useHistoryStore } from '../../src/renderer/src/store/history-store';
import { useMirrorStore } from '../../src/renderer/src/store/mirror-store';
import { useSettingsStore } from '../../src/renderer/src/store/settings-store';
import { useTaskStore } from '../../src/renderer/src/store/task-store';
import type { CurrentTask, MirrorStatus } from '../../src/shared/contract';
import { defaultSettings } from '../../src/shared/settings';
import { applyTaskEvent, newTaskRecord, type TaskEvent, type TaskRecord } from '../../src/shared/task';
import { BridgeError } from '../../src/renderer/src/bridge';
import { FakeBridge, type Handlers } from './fake-bridge';
import { contactsScene, directAnthropic } from './fixtures';

const serial = 'emulator-5554';
const mirrorStatus: MirrorStatus = {
  serial,
  state: 'running',
  pausedBecause: null,
  visible: true,
  fps: 0,
  captureMs: null,
  lastFrame: null,
  error: null,
};

const started: TaskEvent = { type: 'task.started', taskId: 't-7', at: 1000, goal: 'Open contacts', serial, planner: directAnthropic, maxSteps: 10 };
const observed = (step: number): TaskEvent => ({
  type: 'step.observed',
  taskId: 't-7',
  at: 1000 + step,
  step,
  scene: contactsScene,
  sceneError: null,
  screenshot: null,
  screenChanged: null,
  observeMs: 200,
});
const planned = (step: number, rationale: string): TaskEvent => ({
  type: 'step.planned',
  taskId: 't-7',
  at: 1100 + step,
  step,
  tool: 'tap',
  args: { element_id: 'e2' },
  rationale,
  thinking: `thinking about step ${step}`,
  usage: { inputTokens: 100, outputTokens: 10 },
  costUsd: null,
  source: 'model',
  planMs: 900,
});

function recordAfter(events: TaskEvent[]): TaskRecord {
  const base = newTaskRecord({ id: 't-7', goal: 'Open contacts', serial, planner: directAnthropic, maxSteps: 10, createdAt: 1000 });
  return events.reduce(applyTaskEvent, base);
}

function appBackend(current: () => CurrentTask, extra: Handlers = {}) {
  return new FakeBridge({
    'app.info': () => ({ name: 'Agentic Mobile Control', version: '0.1.0', transport: 'web', platform: 'linux-x64' }),
    'app.ping': ({ nonce }) => ({ nonce, serverTime: Date.now() }),
    'devices.list': () => ({
      devices: [{ serial, state: 'device', connection: 'tcp', model: 'Demo Phone', screen: { width: 1080, height: 2400 } }],
      adbServer: '127.0.0.1:5037',
      problem: null,
    }),
    'tasks.current': current,
    'history.list': () => ({ tasks: [], damaged: [] }),
    'settings.get': () => ({
      settings: defaultSettings(),
      effective: defaultSettings(),
      secrets: { ANTHROPIC_API_KEY: 'not set', OPENAI_API_KEY: 'not set', CONTROL_PLANE_TOKEN: 'not set', AMC_FLEET_REDIS: 'not set' },
      envOverrides: [],
      overriddenFields: {},
      folder: '/tmp/amc',
      keyStorage: 'API keys are kept in secrets.json, readable only by you.',
      problem: null,
    }),
    'mirror.getStatus': () => mirrorStatus,
    'mirror.setVisible': () => mirrorStatus,
    'mirror.start': () => mirrorStatus,
    ...extra,
  });
}

function renderApp(bridge: FakeBridge) {
  return render(
    <BridgeContext.Provider value={bridge}>
      <App />
    </BridgeContext.Provider>,
  );
}

beforeEach(() => {
  sessionStorage.clear();
  useAppStore.setState(useAppStore.getInitialState(), true);
  useDevicesStore.setState(useDevicesStore.getInitialState(), true);
  useHistoryStore.setState(useHistoryStore.getInitialState(), true);
  useMirrorStore.setState(useMirrorStore.getInitialState(), true);
  useSettingsStore.setState(useSettingsStore.getInitialState(), true);
  useTaskStore.setState(useTaskStore.getInitialState(), true);
});
afterEach(cleanup);

describe('live task in the window', () => {
  it('Scenario: A reloaded window re-attaches to the running task', async () => {
    const bridge = appBackend(() => ({ task: recordAfter([started, observed(1), planned(1, 'Tap Add contact.')]), paused: false }));
    renderApp(bridge);
    await screen.findByRole('article', { name: 'Step 1' });
    expect(screen.getByTestId('step-rationale').textContent).toBe('Tap Add contact.');
    expect(screen.getByTestId('task-state').textContent).toContain('running, step 1 of at most 10');
    expect((screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(true);

    // Events that the snapshot already contained are not applied twice; new turns appear live.
    act(() => bridge.emit('task.event', observed(1)));
    act(() => bridge.emit('task.event', observed(2)));
    act(() => bridge.emit('task.event', planned(2, 'Type the name.')));
    expect(screen.getAllByTestId('step-card')).toHaveLength(2);
    expect(screen.getAllByTestId('step-rationale').map((node) => node.textContent)).toEqual(['Tap Add contact.', 'Type the name.']);

    act(() =>
      bridge.emit('task.event', {
        type: 'task.finished',
        taskId: 't-7',
        at: 5000,
        status: 'completed',
        failureReason: null,
        result: 'Contacts is open.',
        steps: 2,
        usage: { inputTokens: 200, outputTokens: 20 },
        durationMs: 4000,
      }),
    );
    expect(screen.getByRole('article', { name: 'Done' }).textContent).toContain('Contacts is open.');
    expect((screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('Scenario: A window that missed the start of a task fetches it when its events arrive', async () => {
    let current: CurrentTask = { task: null, paused: false };
    const bridge = appBackend(() => current);
    renderApp(bridge);
    await screen.findByTestId('timeline-empty');
    const asked = bridge.callsOf('tasks.current').length;
    current = { task: recordAfter([started, observed(1), observed(2)]), paused: true };
    act(() => bridge.emit('task.event', planned(2, 'Scroll down.')));
    await waitFor(() => expect(screen.getAllByTestId('step-card')).toHaveLength(2));
    expect(bridge.callsOf('tasks.current').slice(asked)).toEqual([{ serial }]);
    expect(screen.getByRole('button', { name: 'Resume' })).toBeTruthy();
  });

  it('Scenario: Run, Pause and Stop reach main from the goal box', async () => {
    let current: CurrentTask = { task: null, paused: false };
    const bridge = appBackend(() => current, {
      'tasks.run': ({ goal }) => {
        current = { task: recordAfter([{ ...started, goal }]), paused: false };
        return current.task!;
      },
      'tasks.pause': () => ({ taskId: 't-7', status: 'running', paused: true }),
      'tasks.stop': () => ({ taskId: 't-7', status: 'running', paused: false }),
    });
    renderApp(bridge);
    await screen.findByText('Demo Phone');
    const goal = screen.getByLabelText('What should the phone do?');
    fireEvent.change(goal, { target: { value: 'Open contacts' } });
    fireEvent.submit(goal.closest('form')!);
    await waitFor(() => expect(bridge.callsOf('tasks.run')).toEqual([{ serial, goal: 'Open contacts', language: 'en' }]));
    await screen.findByText('Looking at the phone…');
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(bridge.callsOf('tasks.pause')).toEqual([{ taskId: 't-7' }]));
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(bridge.callsOf('tasks.stop')).toEqual([{ taskId: 't-7' }]));
  });

  it("Scenario: The app's Stop takes the phone back from an MCP agent — from the goal box, after the refused run", async () => {
    const holder = `Phone ${serial} is being driven by an MCP agent (claude-code, session started 07:30, process 4242). It is freed when the agent calls release_phone or disconnects.`;
    let held = true;
    const bridge = appBackend(() => ({ task: null, paused: false }), {
      'tasks.run': ({ goal }) => {
        if (held) throw new BridgeError({ code: 'failed', message: holder });
        return recordAfter([{ ...started, goal }]);
      },
      'tasks.stop': () => {
        held = false;
        return { taskId: 'mcp-agent-1', status: 'cancelled', paused: false };
      },
    });
    renderApp(bridge);
    await screen.findByText('Demo Phone');
    const stop = () => screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement;
    expect(stop().disabled).toBe(true);
    const goal = screen.getByLabelText('What should the phone do?');
    fireEvent.change(goal, { target: { value: 'Open contacts' } });
    fireEvent.submit(goal.closest('form')!);
    await waitFor(() => expect(stop().disabled).toBe(false));
    fireEvent.click(stop());
    await waitFor(() => expect(bridge.callsOf('tasks.stop')).toEqual([{ serial }]));
    await waitFor(() => expect(stop().disabled).toBe(true));
    fireEvent.submit(goal.closest('form')!);
    await screen.findByText('Looking at the phone…');
  });

  it('Scenario: A task whose phone vanishes stays on screen with how it ended', async () => {
    const bridge = appBackend(() => ({ task: recordAfter([started, observed(1), planned(1, 'Tap Add contact.')]), paused: false }));
    renderApp(bridge);
    await screen.findByRole('article', { name: 'Step 1' });
    // The phone drops off adb mid-task: the list no longer has it, yet its task is still there to stop.
    act(() => bridge.emit('devices.changed', { devices: [], adbServer: '127.0.0.1:5037', problem: null }));
    // Named as the window last knew it (its model), not by its serial.
    expect(screen.getByTestId('phone-gone').textContent).toContain('Demo Phone is no longer connected');
    expect(screen.getByRole('article', { name: 'Step 1' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(true);
    act(() =>
      bridge.emit('task.event', {
        type: 'task.finished',
        taskId: 't-7',
        at: 5000,
        status: 'failed',
        failureReason: 'The phone is no longer connected.',
        result: null,
        steps: 1,
        usage: { inputTokens: 100, outputTokens: 10 },
        durationMs: 4000,
      }),
    );
    expect(screen.getByRole('article', { name: 'Failed' }).textContent).toContain('The phone is no longer connected.');
    expect((screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('Scenario: A dropped connection is explained and the window catches up when it is back', async () => {
    const bridge = appBackend(() => ({ task: null, paused: false }));
    renderApp(bridge);
    await screen.findByText('Demo Phone');
    expect(screen.queryByTestId('connection-lost')).toBeNull();
    const listsBefore = bridge.callsOf('devices.list').length;
    act(() => bridge.emitConnection(false));
    expect(screen.getByTestId('connection-lost').textContent).toContain('every launch has a new access token');
    expect(screen.getByTestId('connection-status').textContent).toBe('Reconnecting…');
    act(() => bridge.emitConnection(true));
    expect(screen.queryByTestId('connection-lost')).toBeNull();
    // Back: everything is fetched again, so nothing on screen is stale.
    await waitFor(() => expect(bridge.callsOf('devices.list').length).toBeGreaterThan(listsBefore));
  });

  it('Scenario: A typed goal survives a reload of the window', async () => {
    const bridge = appBackend(() => ({ task: null, paused: false }));
    const first = renderApp(bridge);
    await screen.findByText('Demo Phone');
    fireEvent.change(screen.getByLabelText('What should the phone do?'), { target: { value: 'Set an alarm for 7:30' } });
    first.unmount();
    renderApp(bridge);
    expect((screen.getByLabelText('What should the phone do?') as HTMLInputElement).value).toBe('Set an alarm for 7:30');
    await screen.findByText('Demo Phone');
  });

  it('Scenario: A running task opened in History keeps growing until it ends', async () => {
    const snapshot = recordAfter([started, observed(1), planned(1, 'Tap Add contact.')]);
    const bridge = appBackend(() => ({ task: snapshot, paused: false }), {
      'history.list': () => ({
        tasks: [
          {
            id: 't-7',
            goal: 'Open contacts',
            serial,
            status: 'running',
            failureReason: null,
            planner: directAnthropic,
            steps: 1,
            createdAt: 1000,
            finishedAt: null,
            durationMs: 0,
            usage: { inputTokens: 100, outputTokens: 10 },
          },
        ],
        damaged: [],
      }),
      'history.get': () => snapshot,
    });
    renderApp(bridge);
    await screen.findByRole('article', { name: 'Step 1' });
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Open "Open contacts"' }));
    await screen.findByRole('button', { name: '← All tasks' });
    act(() => bridge.emit('task.event', observed(2)));
    expect(screen.getAllByTestId('step-card')).toHaveLength(2);
    act(() =>
      bridge.emit('task.event', {
        type: 'task.finished',
        taskId: 't-7',
        at: 5000,
        status: 'cancelled',
        failureReason: 'Stopped by the user.',
        result: null,
        steps: 1,
        usage: { inputTokens: 100, outputTokens: 10 },
        durationMs: 4000,
      }),
    );
    expect(screen.getByRole('article', { name: 'Stopped' }).textContent).toContain('Stopped by the user.');
  });

  it("Scenario: The History list shows a running task's progress", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(1000 + 3500);
      const running = {
        id: 't-7',
        goal: 'Open contacts',
        serial,
        status: 'running' as const,
        failureReason: null,
        planner: directAnthropic,
        steps: 0,
        createdAt: 1000,
        finishedAt: null,
        durationMs: 0,
        usage: { inputTokens: 0, outputTokens: 0 },
      };
      const bridge = appBackend(() => ({ task: recordAfter([started, observed(1)]), paused: false }), { 'history.list': () => ({ tasks: [running], damaged: [] }) });
      renderApp(bridge);
      await screen.findByRole('article', { name: 'Step 1' });
      fireEvent.click(screen.getByRole('tab', { name: 'History' }));
      const row = await screen.findByTestId('history-row');
      const cells = () => [...row.querySelectorAll('td')].map((cell) => cell.textContent);
      // Goal, status, phone and model, start, steps, duration and tokens: the time since the start, not the stored 0 ms.
      const tokens = () => row.querySelector('[data-testid="history-cost"]')?.getAttribute('title');
      expect([...cells().slice(1, 2), ...cells().slice(4, 6)]).toEqual(['running', '0', '3.5 s · 0']);
      expect(tokens()).toBe('0 tokens in · 0 out');
      const lists = bridge.callsOf('history.list').length;

      vi.setSystemTime(1000 + 12_000);
      act(() => bridge.emit('task.event', planned(1, 'Tap Add contact.')));
      act(() =>
        bridge.emit('task.event', { type: 'step.executed', taskId: 't-7', at: 1200, step: 1, outcome: { ok: true, attempts: 1, durationMs: 80 }, executeMs: 80 }),
      );
      expect([...cells().slice(1, 2), ...cells().slice(4, 6)]).toEqual(['running', '1', '12 s · 110']);
      expect(tokens()).toBe('100 tokens in · 10 out');

      act(() =>
        bridge.emit('task.event', {
          type: 'task.finished',
          taskId: 't-7',
          at: 14_000,
          status: 'completed',
          failureReason: null,
          result: 'Contacts is open.',
          steps: 1,
          usage: { inputTokens: 100, outputTokens: 10 },
          durationMs: 13_000,
        }),
      );
      expect([...cells().slice(1, 2), ...cells().slice(4, 6)]).toEqual(['done', '1', '13 s · 110']);
      // Every turn came from the live events: the list itself was not fetched again.
      expect(bridge.callsOf('history.list')).toHaveLength(lists);
    } finally {
      vi.useRealTimers();
    }
  });

  it('Scenario: A failed bridge call is shown in plain words and the window keeps working', async () => {
    const bridge = appBackend(() => ({ task: null, paused: false }), {
      'devices.list': () => {
        throw new Error('adb was not found on this computer. Install Android platform tools.');
      },
    });
    renderApp(bridge);
    const banner = await screen.findByTestId('error-banner');
    expect(banner.textContent).toContain('adb was not found on this computer');
    expect(screen.getByRole('heading', { name: 'Timeline' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the message' }));
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });

  it('Scenario: A hidden window pauses the mirror', async () => {
    const bridge = appBackend(() => ({ task: null, paused: false }));
    renderApp(bridge);
    await screen.findByText('Demo Phone');
    await waitFor(() => expect(bridge.callsOf('mirror.setVisible')).toEqual([{ visible: true }]));
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    visibility.mockReturnValue('visible');
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(bridge.callsOf('mirror.setVisible')).toEqual([{ visible: true }, { visible: false }, { visible: true }]));
    visibility.mockRestore();
  });
});
