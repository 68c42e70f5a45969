import { z } from 'zod';
import { elementLabel, type Bounds, type SceneElement } from '../../../shared/scene';
import { SWIPE_DIRECTIONS } from '../../../shared/action';
import { swipeInRegion, type Point } from '../gestures';
import { checkOnScreen, findElement } from '../scene-targets';
import { defineTool, InvalidCall } from '../tool';
import { coordinate, elementId, GROUNDING, pointArgs } from './arguments';
import { input } from '../../device/android/input';
import { inTurn } from '../../device/android/shell-line';

export const LONG_PRESS_MS = 800;
const SWIPE_MS = 300;

export const TapArgsSchema = z.strictObject(pointArgs);

export const tap = defineTool({
  name: 'tap',
  schema: TapArgsSchema,
  description: `Tap once. Give element_id, or x and y. ${GROUNDING}`,
  title: 'Tap',
  aim: 'element',
  offeredTo: ['model', 'agent'],
  effects: { target: 'element', verb: 'taps', verifies: 'toggle-or-screen' },
  async run(args, context) {
    const target = await context.aimAt(args, 'tap');
    context.setTarget(target);
    await context.send(input.tap(target.x, target.y));
    return target;
  },
});

export const doubleTap = defineTool({
  name: 'double_tap',
  schema: TapArgsSchema,
  title: 'Double-tap',
  description: `Tap twice in quick succession (zooms maps and photos, likes a post). Give element_id, or x and y. ${GROUNDING}`,
  aim: 'element',
  offeredTo: [],
  effects: { target: 'element', verb: 'double-taps' },
  async run(args, context) {
    const target = await context.aimAt(args, 'double_tap');
    context.setTarget(target);
    // One shell command, so the second tap follows the first without a round trip in between.
    await context.send(inTurn(input.tap(target.x, target.y), input.tap(target.x, target.y)));
    return target;
  },
});

export const LongPressArgsSchema = z.strictObject({
  ...pointArgs,
  duration_ms: z.number().int().min(300).max(5000).optional().describe('How long to hold, default 800 ms.'),
});

export const longPress = defineTool({
  name: 'long_press',
  schema: LongPressArgsSchema,
  description: `Touch and hold (opens context menus, starts selection). Give element_id, or x and y. ${GROUNDING}`,
  title: 'Touch and hold',
  aim: 'element',
  offeredTo: ['model', 'agent'],
  effects: { target: 'element', verb: 'long-presses', verifies: 'toggle-or-screen' },
  async run(args, context) {
    const target = await context.aimAt(args, 'long_press');
    context.setTarget(target);
    const duration = args.duration_ms ?? LONG_PRESS_MS;
    await context.send(input.swipe(target.x, target.y, target.x, target.y, duration));
    return target;
  },
});

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

export const swipe = defineTool({
  name: 'swipe',
  schema: SwipeArgsSchema,
  description:
    'Swipe to scroll or to move between pages. Either give direction (optionally with element_id of the ' +
    'scrollable element), or all of from_x, from_y, to_x, to_y in device pixels. ' +
    'To see more of a list below, swipe up.',
  title: 'Swipe or scroll',
  aim: 'region',
  offeredTo: ['model', 'agent'],
  effects: { target: 'element', verb: 'swipes on', verifies: 'screen-changed' },
  async run(args, context) {
    const screen = await context.screenSize();
    const given = [args.from_x, args.from_y, args.to_x, args.to_y].filter((value) => value !== undefined).length;
    let from: Point;
    let to: Point;
    let element: SceneElement | undefined;
    if (args.direction !== undefined) {
      if (given > 0) throw new InvalidCall('swipe takes either direction or from_x/from_y/to_x/to_y, not both.');
      element = args.element_id === undefined ? undefined : findElement(args.element_id, context.scene);
      const region: Bounds = element?.bounds ?? [0, Math.round(screen.height * 0.15), screen.width, Math.round(screen.height * 0.85)];
      ({ from, to } = swipeInRegion(args.direction, region));
    } else {
      if (args.from_x === undefined || args.from_y === undefined || args.to_x === undefined || args.to_y === undefined) {
        throw new InvalidCall('swipe needs direction (optionally with element_id), or all of from_x, from_y, to_x and to_y.');
      }
      from = { x: args.from_x, y: args.from_y };
      to = { x: args.to_x, y: args.to_y };
      checkOnScreen(from, screen);
      checkOnScreen(to, screen);
    }
    const target = { ...from, ...(element && { elementId: element.id, label: elementLabel(element) }) };
    context.setTarget(target);
    await context.send(input.swipe(from.x, from.y, to.x, to.y, args.duration_ms ?? SWIPE_MS));
    return target;
  },
});
