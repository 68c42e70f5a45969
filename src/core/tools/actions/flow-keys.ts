import { z } from 'zod';
import { defineTool } from '../tool';
import { KEY_CODES } from './keys';
import { input } from '../../device/android/input';

/**
 * Keyboard steps a flow file writes (Maestro's eraseText and hideKeyboard), never offered to the model: it erases by
 * pressing Backspace and hides the keyboard with Back, one key at a time, as a person would.
 */

/** Maestro erases this many characters when a flow does not say how many. */
export const ERASE_DEFAULT_CHARS = 50;

export const eraseText = defineTool({
  name: 'erase_text',
  schema: z.strictObject({ count: z.number().int().min(1).max(1000).optional().describe(`How many characters to erase, default ${ERASE_DEFAULT_CHARS}.`) }),
  title: 'Erase text',
  description: 'Erase characters before the cursor of the focused field (Backspace), from its end.',
  aim: 'none',
  offeredTo: [],
  effects: { target: 'phone', verb: 'erases text in' },
  async run(args, context) {
    const count = args.count ?? ERASE_DEFAULT_CHARS;
    await context.send(input.keyevent(KEY_CODES.move_end, ...Array<number>(count).fill(KEY_CODES.delete)));
    return undefined;
  },
});

export const hideKeyboard = defineTool({
  name: 'hide_keyboard',
  schema: z.strictObject({}),
  title: 'Hide the keyboard',
  description: 'Hide the on-screen keyboard (Back), when it shows; nothing else is pressed.',
  aim: 'none',
  offeredTo: [],
  effects: { target: 'phone', verb: 'hides the keyboard of' },
  async run(_args, context) {
    // Back with no keyboard would leave the screen: pressed only while the turn's screen shows a keyboard.
    if (context.scene?.screen.keyboardShown) await context.send(input.keyevent(KEY_CODES.back));
    return undefined;
  },
});
