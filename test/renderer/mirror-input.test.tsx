// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { Mirror } from '../../src/renderer/src/components/devices/Mirror';
import { useMirrorStore } from '../../src/renderer/src/store/mirror-store';
import { useTaskStore } from '../../src/renderer/src/store/task-store';
import type { MirrorStatus } from '../../src/shared/contract';
import type { DeviceSummary } from '../../src/shared/device';
import { FakeBridge } from './fake-bridge';
import { directAnthropic, finishedTask, tapStep } from './fixtures';

const device: DeviceSummary = { serial: 'emulator-5554', state: 'device', connection: 'tcp', model: 'Demo', screen: { width: 1080, height: 2400 } };
const status: MirrorStatus = { serial: device.serial, state: 'running', pausedBecause: null, visible: true, fps: 5, captureMs: 90, lastFrame: null, error: null };

function mirrorBackend() {
  const answer = () => ({ serial: device.serial, durationMs: 5 });
  return new FakeBridge({ 'mirror.start': () => status, 'devices.tap': answer, 'devices.swipe': answer, 'devices.pressKey': answer });
}

function renderMirror(bridge: FakeBridge) {
  render(
    <BridgeContext.Provider value={bridge}>
      <Mirror device={device} />
    </BridgeContext.Provider>,
  );
  // The canvas is drawn 216 x 480 CSS pixels; the frame was downscaled from the phone's 1080 x 2400.
  const canvas = screen.getByTestId('mirror-canvas');
  vi.spyOn(canvas, 'getBoundingClientRect').mockReturnValue({ left: 100, top: 50, width: 216, height: 480, right: 316, bottom: 530, x: 100, y: 50, toJSON: () => ({}) });
  act(() =>
    useMirrorStore
      .getState()
      .setPainted({ serial: device.serial, seq: 4, width: 432, height: 960, deviceWidth: 1080, deviceHeight: 2400, latencyMs: 120 }, 5),
  );
  return canvas;
}

beforeEach(() => {
  useMirrorStore.setState(useMirrorStore.getInitialState(), true);
  useTaskStore.setState(useTaskStore.getInitialState(), true);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('mirror input', () => {
  it('Scenario: A click on the mirror is a tap and a drag is a swipe, in device pixels', async () => {
    const bridge = mirrorBackend();
    const canvas = renderMirror(bridge);
    fireEvent.pointerDown(canvas, { clientX: 100 + 108, clientY: 50 + 240, button: 0, pointerId: 1 });
    // A little jitter is still a tap, at the point where the press began.
    fireEvent.pointerUp(canvas, { clientX: 100 + 109, clientY: 50 + 241, pointerId: 1 });
    await waitFor(() => expect(bridge.callsOf('devices.tap')).toEqual([{ serial: device.serial, x: 540, y: 1200 }]));

    fireEvent.pointerDown(canvas, { clientX: 100 + 108, clientY: 50 + 400, button: 0, pointerId: 1 });
    fireEvent.pointerUp(canvas, { clientX: 100 + 108, clientY: 50 + 80, pointerId: 1 });
    await waitFor(() => expect(bridge.callsOf('devices.swipe')).toHaveLength(1));
    expect(bridge.callsOf('devices.swipe')[0]).toMatchObject({ serial: device.serial, fromX: 540, fromY: 2000, toX: 540, toY: 400 });
    expect(bridge.callsOf('mirror.start')).toEqual([{ serial: device.serial, maxSize: expect.any(Number), decodesVideo: expect.any(Boolean) }]);
  });

  it('Scenario: While the agent acts the mirror marks its target and sends no input', () => {
    const running = finishedTask([tapStep({ step: 1 })], { status: 'running', serial: device.serial, planner: directAnthropic });
    useTaskStore.getState().attach(device.serial, { task: running, paused: false });
    const bridge = mirrorBackend();
    const canvas = renderMirror(bridge);
    const target = screen.getByTestId('mirror-target');
    expect([target.getAttribute('cx'), target.getAttribute('cy')]).toEqual(['910', '2200']);
    fireEvent.pointerDown(canvas, { clientX: 200, clientY: 200, button: 0, pointerId: 1 });
    fireEvent.pointerUp(canvas, { clientX: 200, clientY: 200, pointerId: 1 });
    expect(bridge.callsOf('devices.tap')).toEqual([]);
    expect((screen.getByRole('button', { name: 'Home' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('The agent is in control. Pause the task to use the phone yourself.')).toBeTruthy();

    // Paused: the person has control again.
    act(() => useTaskStore.getState().attach(device.serial, { task: running, paused: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Home' }));
    expect(bridge.callsOf('devices.pressKey')).toEqual([{ serial: device.serial, key: 'home' }]);
  });
});
