import { z } from 'zod';
import type { DecisionToolSpec } from '../../shared/decision';

/**
 * The action tools the planner may call, one zod schema each. The schemas validate arguments on the way in
 * (Executor) and become the JSON Schemas both providers receive (ACTION_TOOL_SPECS). Checks that need the
 * turn's Scene (does e7 exist? is the point on the screen?) happen in the Executor.
 */

const elementId = z
  .string()
  .regex(/^e[1-9]\d*$/, 'element_id is an id from the current Scene, like "e12"')
  .describe('Id of an element in the current Scene (e.g. "e12"). Preferred over coordinates.');
const coordinate = (axis: 'x' | 'y') =>
  z
    .number()
    .int()
    .min(0)
    .max(100_000)
    .describe(`${axis.toUpperCase()} in device pixels (the Scene's coordinate space, within its bounds' range).`);

export const TapArgsSchema = z.strictObject({
  element_id: elementId.optional(),
  x: coordinate('x').optional(),
  y: coordinate('y').optional(),
});

export const LongPressArgsSchema = z.strictObject({
  element_id: elementId.optional(),
  x: coordinate('x').optional(),
  y: coordinate('y').optional(),
  duration_ms: z.number().int().min(300).max(5000).optional().describe('How long to hold, default 800 ms.'),
});

export const SWIPE_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

export const SwipeArgsSchema = z.strictObject({
  direction: z
    .enum(SWIPE_DIRECTIONS)
    .optional()
    .describe(
      'Direction the finger moves. "up" scrolls content toward its end (reveals items below), "down" toward its ' +
        'start; "left" reveals content on the right.',
    ),
  element_id: elementId.optional().describe('Scrollable element to swipe inside (default: the middle of the screen).'),
  from_x: coordinate('x').optional(),
  from_y: coordinate('y').optional(),
  to_x: coordinate('x').optional(),
  to_y: coordinate('y').optional(),
  duration_ms: z.number().int().min(50).max(5000).optional().describe('Duration of the gesture, default 300 ms.'),
});

export const TypeTextArgsSchema = z.strictObject({
  text: z.string().min(1).max(2000).describe('The text to type, any language (non-ASCII is supported).'),
  element_id: elementId.optional().describe('Field to tap first so it has focus; omit when a field is already focused.'),
  clear_first: z.boolean().optional().describe('Delete the field\'s current text before typing (default false).'),
  submit: z.boolean().optional().describe('Press Enter after typing, e.g. to search or send (default false).'),
});

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

export const LaunchAppArgsSchema = z.strictObject({
  app: z
    .string()
    .min(1)
    .max(200)
    .describe('Package name (e.g. "com.android.settings") or the app\'s label as shown on the home screen (e.g. "Settings").'),
});

export const MAX_WAIT_SECONDS = 10;

export const WaitArgsSchema = z.strictObject({
  seconds: z.number().min(0.1).max(MAX_WAIT_SECONDS).describe(`How long to wait, 0.1 to ${MAX_WAIT_SECONDS} seconds.`),
});

export const DescribeScreenArgsSchema = z.strictObject({});

const GROUNDING =
  'Prefer element_id from the current Scene; ids change every turn. Coordinates are device pixels, the space of ' +
  'the Scene\'s bounds [left, top, right, bottom].';

export const ACTION_TOOLS = {
  tap: {
    schema: TapArgsSchema,
    description: `Tap once. Give element_id, or x and y. ${GROUNDING}`,
  },
  long_press: {
    schema: LongPressArgsSchema,
    description: `Touch and hold (opens context menus, starts selection). Give element_id, or x and y. ${GROUNDING}`,
  },
  swipe: {
    schema: SwipeArgsSchema,
    description:
      'Swipe to scroll or to move between pages. Either give direction (optionally with element_id of the ' +
      'scrollable element), or all of from_x, from_y, to_x, to_y in device pixels. ' +
      'To see more of a list below, swipe up.',
  },
  type_text: {
    schema: TypeTextArgsSchema,
    description:
      'Type text into a text field. Give element_id of an editable element to focus it first (recommended), ' +
      'clear_first to replace its current text, submit to press Enter afterwards.',
  },
  press_key: {
    schema: PressKeyArgsSchema,
    description: 'Press a device key: back, home, recents, enter, delete, and others.',
  },
  launch_app: {
    schema: LaunchAppArgsSchema,
    description: 'Open an app by package name or by its label, from any screen.',
  },
  wait: {
    schema: WaitArgsSchema,
    description: 'Do nothing for a few seconds, e.g. while something loads; the screen is observed again after.',
  },
  describe_screen: {
    schema: DescribeScreenArgsSchema,
    description: 'Take no action this turn; just observe the screen again.',
  },
} as const;

export type ActionToolName = keyof typeof ACTION_TOOLS;
export const ACTION_TOOL_NAMES = Object.keys(ACTION_TOOLS) as ActionToolName[];

export type TapArgs = z.infer<typeof TapArgsSchema>;
export type LongPressArgs = z.infer<typeof LongPressArgsSchema>;
export type SwipeArgs = z.infer<typeof SwipeArgsSchema>;
export type TypeTextArgs = z.infer<typeof TypeTextArgsSchema>;
export type PressKeyArgs = z.infer<typeof PressKeyArgsSchema>;
export type LaunchAppArgs = z.infer<typeof LaunchAppArgsSchema>;
export type WaitArgs = z.infer<typeof WaitArgsSchema>;

export function isActionToolName(name: string): name is ActionToolName {
  return Object.hasOwn(ACTION_TOOLS, name);
}

/** JSON Schema of a zod schema in the plain form both providers accept (an object schema, no `$schema`). */
export function toolInputSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  return json;
}

/** The action tools as provider-neutral specs (the runtime adds `finish_task`). */
export const ACTION_TOOL_SPECS: DecisionToolSpec[] = ACTION_TOOL_NAMES.map((name) => ({
  name,
  description: ACTION_TOOLS[name].description,
  inputSchema: toolInputSchema(ACTION_TOOLS[name].schema),
}));
