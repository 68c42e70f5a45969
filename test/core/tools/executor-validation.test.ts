import { describe, expect, it } from 'vitest';
import { AdbError } from '../../../src/core/device/errors';
import { Executor, type CommandRunner } from '../../../src/core/tools/executor';
import { attemptsLabel } from '../../../src/shared/action';
import type { Scene } from '../../../src/shared/scene';

/**
 * A stand-in for the AdbClient's `exec` that records what would reach the phone. These tests cover the
 * checks made before anything is sent and the retry policy; the real adb path is covered by
 * executor.integration.test.ts against the virtual device.
 */
function recordingRunner(failures: AdbError[] = []): CommandRunner & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    async exec(_serial: string, command: string) {
      sent.push(command);
      const failure = failures.shift();
      if (failure) throw failure;
      return { output: '', succeeded: true };
    },
  };
}

const scene: Scene = {
  screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.settings', keyboardShown: false },
  elements: [
    { id: 'e1', type: 'TextView', text: 'Settings', bounds: [42, 100, 600, 250] },
    { id: 'e2', type: 'LinearLayout', text: 'Wi-Fi', bounds: [0, 300, 1080, 470], clickable: true, checked: true },
    { id: 'e3', type: 'RecyclerView', bounds: [0, 250, 1080, 2337], scrollable: true },
  ],
};
const context = { serial: 'emulator-5554', scene };

describe('Executor validation', () => {
  it('Scenario: An unknown element id is rejected without touching the phone', async () => {
    const runner = recordingRunner();
    const outcome = await new Executor(runner).execute({ name: 'tap', args: { element_id: 'e99' } }, context);
    expect(outcome).toMatchObject({ ok: false, attempts: 0 });
    expect(outcome.error).toMatch(/no element e99.*e1 to e3/);
    expect(runner.sent).toEqual([]);
  });

  it('Scenario: An element behind a dialog is not acted on, and the refusal names the dialog', async () => {
    const runner = recordingRunner();
    const executor = new Executor(runner);
    const behind: Scene = {
      screen: { ...scene.screen, dialog: 'Reset app preferences?' },
      elements: [
        { id: 'e1', type: 'LinearLayout', text: 'Wi-Fi', bounds: [0, 300, 1080, 470], covered: true },
        { id: 'e2', type: 'EditText', text: 'Search', bounds: [0, 500, 1080, 600], covered: true },
        { id: 'e3', type: 'RecyclerView', bounds: [0, 250, 1080, 2337], covered: true },
        { id: 'e4', type: 'Button', text: 'Reset apps', bounds: [600, 1300, 900, 1400], clickable: true, window: 'dialog' },
      ],
    };
    const calls = [
      { name: 'tap', args: { element_id: 'e1' } },
      { name: 'long_press', args: { element_id: 'e1' } },
      { name: 'type_text', args: { element_id: 'e2', text: 'wifi' } },
      { name: 'swipe', args: { direction: 'up', element_id: 'e3' } },
    ];
    for (const call of calls) {
      const outcome = await executor.execute(call, { ...context, scene: behind });
      expect(outcome, call.name).toMatchObject({ ok: false, attempts: 0 });
      expect(outcome.error, call.name).toMatch(/^e\d \(.*\) is behind the dialog 'Reset app preferences\?': a tap there would land on it/);
    }
    expect(runner.sent).toEqual([]);
    // The dialog's own button is tapped as usual.
    expect(await executor.execute({ name: 'tap', args: { element_id: 'e4' } }, { ...context, scene: behind })).toMatchObject({ ok: true });
    expect(runner.sent).toEqual(['input tap 750 1350']);
  });

  it('Scenario: A point outside the screen is rejected without touching the phone', async () => {
    const runner = recordingRunner();
    const executor = new Executor(runner);
    const outcome = await executor.execute({ name: 'tap', args: { x: 1080, y: 10 } }, context);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/outside the 1080x2400 screen/);
    const swipe = await executor.execute({ name: 'swipe', args: { from_x: 10, from_y: 10, to_x: 10, to_y: 5000 } }, context);
    expect(swipe.error).toMatch(/\(10, 5000\) is outside/);
    expect(runner.sent).toEqual([]);
  });

  it('rejects unknown tools, bad arguments and half-given coordinates with a reason', async () => {
    const runner = recordingRunner();
    const executor = new Executor(runner);
    const results = await Promise.all([
      executor.execute({ name: 'fly', args: {} }, context),
      executor.execute({ name: 'tap', args: { element_id: 7 } }, context),
      executor.execute({ name: 'tap', args: { x: 5 } }, context),
      executor.execute({ name: 'press_key', args: { key: 'volume_up', extra: 1 } }, context),
      executor.execute({ name: 'wait', args: { seconds: 3600 } }, context),
      executor.execute({ name: 'swipe', args: { direction: 'up', from_x: 1 } }, context),
      executor.execute({ name: 'tap', args: { element_id: 'e2' } }, { ...context, scene: null }),
    ]);
    expect(results.map((r) => r.ok)).toEqual([false, false, false, false, false, false, false]);
    expect(results[0]!.error).toMatch(/Unknown tool "fly".*tap, long_press/);
    expect(results[1]!.error).toMatch(/Invalid arguments for tap: element_id/);
    expect(results[2]!.error).toMatch(/needs element_id, or both x and y/);
    expect(results[3]!.error).toMatch(/unknown argument\(s\) extra/);
    expect(results[4]!.error).toMatch(/seconds/);
    expect(results[5]!.error).toMatch(/either direction or from_x/);
    expect(results[6]!.error).toMatch(/no Scene this turn/);
    expect(runner.sent).toEqual([]);
  });

  it('resolves an element id to the centre of its bounds', async () => {
    const runner = recordingRunner();
    const outcome = await new Executor(runner).execute({ name: 'tap', args: { element_id: 'e2' } }, context);
    expect(outcome).toMatchObject({ ok: true, attempts: 1, target: { x: 540, y: 385, elementId: 'e2', label: 'LinearLayout "Wi-Fi"' } });
    expect(runner.sent).toEqual(['input tap 540 385']);
  });

  it('Scenario: A transient adb failure is retried with bounded backoff', async () => {
    const offline = () => new AdbError('emulator-5554 is offline', 'device-offline');
    const runner = recordingRunner([offline(), offline()]);
    const outcome = await new Executor(runner, { initialBackoffMs: 5 }).execute({ name: 'press_key', args: { key: 'back' } }, context);
    expect(outcome).toMatchObject({ ok: true, attempts: 3, retries: 2 });
    expect(attemptsLabel(outcome)).toBe('3 attempts');
    expect(runner.sent).toEqual(['input keyevent 4', 'input keyevent 4', 'input keyevent 4']);

    const stubborn = recordingRunner([offline(), offline(), offline(), offline()]);
    const failed = await new Executor(stubborn, { initialBackoffMs: 5, maxAttempts: 3 }).execute({ name: 'press_key', args: { key: 'back' } }, context);
    expect(failed).toMatchObject({ ok: false, attempts: 3, retries: 2, error: 'emulator-5554 is offline' });
  });

  it('does not retry a command that may have reached the phone', async () => {
    const runner = recordingRunner([new AdbError('dropped mid-command', 'connection-dropped')]);
    const outcome = await new Executor(runner, { initialBackoffMs: 5 }).execute({ name: 'tap', args: { element_id: 'e2' } }, context);
    expect(outcome).toMatchObject({ ok: false, attempts: 1, error: 'dropped mid-command', target: { elementId: 'e2' } });
    expect(runner.sent).toHaveLength(1);
  });

  it('swipes inside a scrollable element in the finger direction', async () => {
    const runner = recordingRunner();
    const outcome = await new Executor(runner).execute({ name: 'swipe', args: { direction: 'up', element_id: 'e3' } }, context);
    expect(outcome.ok).toBe(true);
    const [, , fromX, fromY, toX, toY, duration] = runner.sent[0]!.split(' ').map(Number);
    expect(fromX).toBe(toX);
    expect(fromY).toBeGreaterThan(toY!);
    expect(fromY! < 2337 && toY! > 250).toBe(true);
    expect(duration).toBe(300);
  });
});

