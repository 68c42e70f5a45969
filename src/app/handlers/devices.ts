import type { ToolCall } from '../../shared/action';
import type { MirrorKey } from '../../shared/contract/devices';
import type { MirrorInput } from '../../core/flows/recorded-input';
import type { RecordingService } from '../recording-service';
import type { MethodHandlers } from '../ipc/router';
import type { DeviceMirror } from '../mirror/device-mirror';
import type { DeviceService } from '../device-service';
import type { PhoneAccess } from '../../core/headless/phone-access';
import { rotateScreen, takeScreenshot } from '../person-controls';
import { LONG_PRESS_MS } from '../../core/tools/actions/touch';
import type { TaskService } from '../task-service';

/** A mirror swipe without a duration takes as long as adb's default `input swipe`. */
const SWIPE_DEFAULT_MS = 300;

type VideoControl = NonNullable<ReturnType<DeviceMirror['videoControl']>>;

/** The gesture over scrcpy's control socket, for the calls it can carry (typing goes through adb). */
function videoGesture({ name, args }: ToolCall): ((control: VideoControl) => Promise<void>) | undefined {
  const at = (key: string) => Number(args[key]);
  if (name === 'tap') return (control) => control.tap(at('x'), at('y'));
  if (name === 'swipe') return (control) => control.swipe({ x: at('from_x'), y: at('from_y') }, { x: at('to_x'), y: at('to_y') }, args.duration_ms === undefined ? SWIPE_DEFAULT_MS : at('duration_ms'));
  if (name === 'long_press') return (control) => control.swipe({ x: at('x'), y: at('y') }, { x: at('x'), y: at('y') }, LONG_PRESS_MS);
  if (name === 'press_key') return (control) => control.pressKey(args.key as MirrorKey);
  return undefined;
}

export function deviceHandlers(devices: DeviceService, phone: PhoneAccess, tasks: TaskService, mirror: DeviceMirror, recorder: RecordingService): MethodHandlers {
  /** A person's gesture on the mirror: refused while a task drives the phone, so the two never fight. */
  const refuseWhileAgentActs = (serial: string) => {
    const busy = tasks.busyReason(serial);
    if (busy) throw new Error(busy);
  };
  /** While the video mirror runs a gesture goes over scrcpy's control socket; otherwise through adb input like the agent's actions. */
  const send = async (serial: string, call: ToolCall) => {
    const overVideo = videoGesture(call);
    const control = overVideo && (await mirror.videoControlAfterRestart(serial));
    if (control) {
      const startedAt = performance.now();
      await overVideo(control);
      return { serial, durationMs: Math.round(performance.now() - startedAt) };
    }
    const outcome = await phone.act(serial, call);
    return { serial, durationMs: outcome.durationMs };
  };
  /** Carried out as always; while a recording runs on the phone, also kept as a step (the recorder may aim a tap anew). */
  const gesture = (serial: string, input: MirrorInput, call: ToolCall) => {
    refuseWhileAgentActs(serial);
    return recorder.carryOut(serial, input, (aimed) => send(serial, aimed), call);
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
    'devices.tap': ({ serial, x, y }) => gesture(serial, { kind: 'tap', x, y }, { name: 'tap', args: { x, y } }),
    'devices.longPress': ({ serial, x, y }) => gesture(serial, { kind: 'longPress', x, y }, { name: 'long_press', args: { x, y } }),
    'devices.swipe': ({ serial, fromX, fromY, toX, toY, durationMs }) =>
      gesture(
        serial,
        { kind: 'swipe', fromX, fromY, toX, toY, ...(durationMs !== undefined && { durationMs }) },
        { name: 'swipe', args: { from_x: fromX, from_y: fromY, to_x: toX, to_y: toY, ...(durationMs !== undefined && { duration_ms: durationMs }) } },
      ),
    'devices.pressKey': ({ serial, key }) => gesture(serial, { kind: 'key', key }, { name: 'press_key', args: { key } }),
    // No element: the text goes to the field that has focus, as a keyboard would.
    'devices.typeText': ({ serial, text }) => gesture(serial, { kind: 'text', text }, { name: 'type_text', args: { text } }),
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
