import { z } from 'zod';
import type { StepTarget } from '../../../shared/action';
import type { SceneElement } from '../../../shared/scene';
import { ADB_KEYBOARD_IME, hasUntypableControls, imeTextCommand, inputTextCommands, isInputTextTypable } from '../input-text';
import { findElement } from '../scene-targets';
import { defineTool, InvalidCall, type ToolContext } from '../tool';
import { elementId } from './arguments';
import { KEY_CODES } from './keys';

/** Deletes this many characters when the field's current text is not known. */
const CLEAR_FALLBACK_CHARS = 100;

export const TypeTextArgsSchema = z.strictObject({
  text: z.string().min(1).max(2000).describe('The text to type, any language (non-ASCII is supported).'),
  element_id: elementId.optional().describe('Field to tap first so it has focus; omit when a field is already focused.'),
  clear_first: z.boolean().optional().describe('Delete the field\'s current text before typing (default false).'),
  submit: z.boolean().optional().describe('Press Enter after typing, e.g. to search or send (default false).'),
});

export const typeText = defineTool({
  name: 'type_text',
  schema: TypeTextArgsSchema,
  description:
    'Type text into a text field. Give element_id of an editable element to focus it first (recommended), ' +
    'clear_first to replace its current text, submit to press Enter afterwards.',
  actsOnPhone: true,
  offeredToModel: true,
  sensitiveByDefault: false,
  async run(args, context) {
    const viaIme = !isInputTextTypable(args.text);
    if (hasUntypableControls(args.text)) {
      throw new InvalidCall('type_text cannot type control characters (tabs and the like); use press_key for keys.');
    }
    let target: StepTarget | undefined;
    let field: SceneElement | undefined;
    if (args.element_id !== undefined) {
      target = await context.aimAt({ element_id: args.element_id }, 'type_text');
      field = findElement(args.element_id, context.scene);
    } else {
      field = context.scene?.elements.find((element) => element.editable && element.focused);
    }
    const ime = viaIme ? await prepareIme(context) : undefined;
    if (target) {
      context.setTarget(target);
      await context.send(`input tap ${target.x} ${target.y}`);
    }
    try {
      if (args.clear_first) {
        const count = field?.text ? field.text.length : CLEAR_FALLBACK_CHARS;
        await context.send(`input keyevent ${[KEY_CODES.move_end, ...Array<number>(count).fill(KEY_CODES.delete)].join(' ')}`);
      }
      if (viaIme) await context.send(imeTextCommand(args.text));
      else for (const command of inputTextCommands(args.text)) await context.send(command);
      if (args.submit) await context.send(`input keyevent ${KEY_CODES.enter}`);
    } finally {
      if (ime?.previous && !context.signal?.aborted) await context.send(`ime set ${ime.previous}`).catch(() => undefined);
    }
    return target;
  },
});

/**
 * Makes ADBKeyBoard the current input method for non-ASCII text. Returns the method to restore, or throws
 * a clear error when ADBKeyBoard is not installed and enabled.
 */
async function prepareIme(context: ToolContext): Promise<{ previous?: string }> {
  const enabled = (await context.query('ime list -s')).split('\n').map((line) => line.trim());
  if (!enabled.includes(ADB_KEYBOARD_IME)) {
    throw new InvalidCall(
      'Typing non-ASCII text needs the ADBKeyBoard input method, which is not enabled on this phone. Install ' +
        `ADBKeyBoard (https://github.com/senzhk/ADBKeyBoard) and run \`adb shell ime enable ${ADB_KEYBOARD_IME}\`, ` +
        'or type ASCII text only.',
    );
  }
  const current = (await context.query('settings get secure default_input_method')).trim();
  if (current === ADB_KEYBOARD_IME) return {};
  await context.send(`ime set ${ADB_KEYBOARD_IME}`);
  return current && current !== 'null' ? { previous: current } : {};
}
