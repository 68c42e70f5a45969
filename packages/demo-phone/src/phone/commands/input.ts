import { failure, output, type CommandHandler } from '../shell/interpreter';
import { SYSTEM_SERVER_PID } from '../system-processes';
import type { PhoneServices } from './context';

/** `input tap|swipe|text|keyevent|press` as Android 14's InputShellCommand. */

const KEY_CODES: Record<string, number> = {
  HOME: 3,
  BACK: 4,
  CALL: 5,
  ENDCALL: 6,
  STAR: 17,
  POUND: 18,
  DPAD_UP: 19,
  DPAD_DOWN: 20,
  DPAD_LEFT: 21,
  DPAD_RIGHT: 22,
  DPAD_CENTER: 23,
  VOLUME_UP: 24,
  VOLUME_DOWN: 25,
  POWER: 26,
  CAMERA: 27,
  CLEAR: 28,
  COMMA: 55,
  PERIOD: 56,
  TAB: 61,
  SPACE: 62,
  ENTER: 66,
  DEL: 67,
  MENU: 82,
  SEARCH: 84,
  ESCAPE: 111,
  FORWARD_DEL: 112,
  MOVE_HOME: 122,
  MOVE_END: 123,
  APP_SWITCH: 187,
  SLEEP: 223,
  WAKEUP: 224,
};
for (let digit = 0; digit <= 9; digit++) KEY_CODES[String(digit)] = 7 + digit;
for (let letter = 0; letter < 26; letter++) KEY_CODES[String.fromCharCode(65 + letter)] = 29 + letter;

const SOURCES = new Set(['keyboard', 'gamepad', 'touchscreen', 'touchpad', 'touchnavigation', 'dpad', 'mouse', 'stylus', 'trackball', 'joystick', 'rotaryencoder']);

const USAGE = `Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--duration <duration to hold key down in ms>] [--doubletap] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
`;

function exception(command: string, detail: string): ReturnType<typeof failure> {
  return failure(`Exception occurred while executing '${command}':\n${detail}\n`, 255);
}

function parseInteger(command: string, value: string | undefined): number | ReturnType<typeof failure> {
  const parsed = value === undefined ? Number.NaN : Number(value);
  if (!Number.isFinite(parsed)) return exception(command, `java.lang.NumberFormatException: For input string: "${value ?? ''}"`);
  return parsed;
}

/** Resolves `KEYCODE_BACK`, `BACK` or `4`; undefined when unknown. */
export function keyCodeFor(token: string): number | undefined {
  if (/^\d+$/.test(token)) return Number(token);
  return KEY_CODES[token.toUpperCase().replace(/^KEYCODE_/, '')];
}

export function inputCommand(phone: PhoneServices): CommandHandler {
  return async ({ args, signal }) => {
    let rest = [...args];
    if (rest[0] !== undefined && SOURCES.has(rest[0])) rest = rest.slice(1);
    if (rest[0] === '-d') rest = rest.slice(2);
    const [command, ...params] = rest;
    if (command === undefined) return failure(USAGE, 1);
    const ui = phone.ui;
    // What InputDispatcher would deliver, in the log `logcat` reads.
    const logInput = (event: string): void =>
      phone.log.add({ pid: SYSTEM_SERVER_PID, tid: SYSTEM_SERVER_PID + 15, priority: 'I', tag: 'InputDispatcher', message: `Injected ${event} to ${ui.snapshot().activity}` });
    switch (command) {
      case 'tap': {
        if (params.length !== 2) return failure(`Error: Invalid arguments for command: tap\n${USAGE}`, 1);
        const x = parseInteger('tap', params[0]);
        const y = parseInteger('tap', params[1]);
        if (typeof x !== 'number') return x;
        if (typeof y !== 'number') return y;
        await phone.delay('input', signal);
        logInput(`tap at (${x}, ${y})`);
        ui.tap(x, y);
        return output();
      }
      case 'swipe': {
        if (params.length < 4 || params.length > 5) return failure(`Error: Invalid arguments for command: swipe\n${USAGE}`, 1);
        const numbers: number[] = [];
        for (const param of params) {
          const value = parseInteger('swipe', param);
          if (typeof value !== 'number') return value;
          numbers.push(value);
        }
        const [x1, y1, x2, y2, duration = 300] = numbers as [number, number, number, number, number?];
        await phone.delay('input', signal);
        logInput(`swipe from (${x1}, ${y1}) to (${x2}, ${y2}) in ${duration} ms`);
        ui.swipe(x1, y1, x2, y2, duration);
        return output();
      }
      case 'text': {
        const raw = params[0];
        if (raw === undefined) return failure(`Error: Invalid arguments for command: text\n${USAGE}`, 1);
        const text = raw.replace(/%s/g, ' ');
        // The virtual key map only knows ASCII: other characters make KeyCharacterMap.getEvents() return null.
        if (/[^\x20-\x7e\n\t]/.test(text)) {
          return exception(
            'text',
            'java.lang.NullPointerException: Attempt to get length of null array\n' +
              '\tat com.android.server.input.InputShellCommand.sendText(InputShellCommand.java:441)\n' +
              '\tat com.android.server.input.InputShellCommand.runText(InputShellCommand.java:398)\n' +
              '\tat com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:291)',
          );
        }
        await phone.delay('input', signal);
        ui.typeText(text);
        return output();
      }
      case 'keyevent': {
        const codes: number[] = [];
        for (const param of params) {
          if (param === '--longpress' || param === '--doubletap') continue;
          const code = keyCodeFor(param);
          if (code === undefined) return exception('keyevent', `java.lang.IllegalArgumentException: Unknown keycode: ${param}`);
          codes.push(code);
        }
        if (codes.length === 0) return failure(`Error: Invalid arguments for command: keyevent\n${USAGE}`, 1);
        await phone.delay('input', signal);
        for (const code of codes) {
          logInput(`key ${code}`);
          ui.key(code);
        }
        return output();
      }
      case 'press':
        await phone.delay('input', signal);
        return output();
      default:
        return failure(`Error: Unknown command: ${command}\n${USAGE}`, 1);
    }
  };
}
