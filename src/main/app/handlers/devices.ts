import type { ToolCall } from '../../../shared/action';
import type { MethodHandlers } from '../../ipc/router';
import type { DeviceMirror } from '../../mirror/device-mirror';
import type { DeviceService } from '../device-service';
import type { PhoneAccess } from '../phone-access';
import { rotateScreen, takeScreenshot } from '../person-controls';
import type { TaskService } from '../task-service';

/** A mirror swipe without a duration takes as long as adb's default `input swipe`. */
const SWIPE_DEFAULT_MS = 300;

export function deviceHandlers(devices: DeviceService, phone: PhoneAccess, tasks: TaskService, mirror: DeviceMirror): MethodHandlers {
  type VideoControl = NonNullable<ReturnType<DeviceMirror['videoControl']>>;
  /** A person's gesture on the mirror: refused while a task drives the phone, so the two never fight. */
  const refuseWhileAgentActs = (serial: string) => {
    const busy = tasks.busyReason(serial);
    if (busy) throw new Error(busy);
  };
  /** While the video mirror runs a gesture goes over scrcpy's control socket; otherwise through adb input like the agent's actions. */
  const gesture = async (serial: string, call: ToolCall, overVideo?: (control: VideoControl) => Promise<void>) => {
    refuseWhileAgentActs(serial);
    const control = overVideo && (await mirror.videoControlAfterRestart(serial));
    if (control) {
      const startedAt = performance.now();
      await overVideo(control);
      return { serial, durationMs: Math.round(performance.now() - startedAt) };
    }
    const outcome = await phone.act(serial, call);
    return { serial, durationMs: outcome.durationMs };
  };
  return {
    'devices.list': () => devices.list(),
    'devices.connect': async ({ address }) => ({ serial: await devices.connect(address) }),
    'devices.disconnect': async ({ serial }) => {
      await devices.disconnect(serial);
      return { serial };
    },
    'devices.pair': async ({ address, code }) => ({ message: await devices.pair(address, code) }),
    'devices.startDemo': ({ another }) => devices.startDemo({ another }),
    'devices.tap': ({ serial, x, y }) => gesture(serial, { name: 'tap', args: { x, y } }, (control) => control.tap(x, y)),
    'devices.swipe': ({ serial, fromX, fromY, toX, toY, durationMs }) =>
      gesture(
        serial,
        {
          name: 'swipe',
          args: { from_x: fromX, from_y: fromY, to_x: toX, to_y: toY, ...(durationMs !== undefined && { duration_ms: durationMs }) },
        },
        (control) => control.swipe({ x: fromX, y: fromY }, { x: toX, y: toY }, durationMs ?? SWIPE_DEFAULT_MS),
      ),
    'devices.pressKey': ({ serial, key }) => gesture(serial, { name: 'press_key', args: { key } }, (control) => control.pressKey(key)),
    // No element: the text goes to the field that has focus, as a keyboard would.
    'devices.typeText': ({ serial, text }) => gesture(serial, { name: 'type_text', args: { text } }),
    'devices.rotate': async ({ serial }) => {
      refuseWhileAgentActs(serial);
      const started = performance.now();
      const rotation = await rotateScreen(await devices.adb(), serial);
      return { serial, rotation, durationMs: performance.now() - started };
    },
    // Allowed while a task runs: it only looks, and the picture is the person's, not the planner's.
    'devices.screenshot': async ({ serial }) => takeScreenshot(await devices.adb(), serial),
  };
}
