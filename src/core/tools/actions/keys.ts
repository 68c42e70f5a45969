import { z } from 'zod';
import type { ToolCall } from '../../../shared/action';
import { defineTool } from '../tool';
import { input } from '../../device/android/input';

/** Key names the planner may press, mapped to Android key codes. */
export const KEY_CODES = {
  back: 4,
  home: 3,
  enter: 66,
  recents: 187,
  delete: 67,
  forward_delete: 112,
  tab: 61,
  escape: 111,
  search: 84,
  menu: 82,
  space: 62,
  dpad_up: 19,
  dpad_down: 20,
  dpad_left: 21,
  dpad_right: 22,
  dpad_center: 23,
  move_home: 122,
  move_end: 123,
  page_up: 92,
  page_down: 93,
  volume_up: 24,
  volume_down: 25,
  volume_mute: 164,
  power: 26,
  wakeup: 224,
  media_play_pause: 85,
} as const;
export type KeyName = keyof typeof KEY_CODES;

export const PressKeyArgsSchema = z.strictObject({
  key: z
    .enum(Object.keys(KEY_CODES) as [KeyName, ...KeyName[]])
    .describe('back = Android Back, home = Home screen, recents = app switcher, delete = Backspace, enter = Enter.'),
});

export const pressKey = defineTool({
  name: 'press_key',
  schema: PressKeyArgsSchema,
  description: 'Press a device key: back, home, recents, enter, delete, and others.',
  title: 'Press a key or button (Back, Home, Enter, volume…)',
  aim: 'none',
  offeredTo: ['model', 'agent'],
  effects: { target: 'phone', verifies: 'screen-changed', pressesEnter: (args) => args.key === 'enter' },
  async run(args, context) {
    await context.send(input.keyevent(KEY_CODES[args.key]));
    return undefined;
  },
});

/** The call that leaves a screen the way a person would (the runtime's way out of an app outside a task's scope). */
export const GO_BACK: ToolCall = { name: pressKey.name, args: { key: 'back' satisfies KeyName } };
