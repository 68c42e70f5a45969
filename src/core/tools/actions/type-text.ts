import { z } from 'zod';
import type { StepTarget } from '../../../shared/action';
import type { SceneElement } from '../../../shared/scene';
import {
  hasShellHostileCharacters,
  hasUntypableControls,
  imeTextCommand,
  inputTextCommands,
  isInputTextTypable,
  yadbTextCommand,
} from '../input-text';
import { findElement } from '../scene-targets';
import { AdbError } from '../../device/errors';
import { defineTool, InvalidCall, type ToolContext } from '../tool';
import { elementId } from './arguments';
import { KEY_CODES } from './keys';
import { ADB_KEYBOARD_IME, ime, parseImeList } from '../../device/android/ime';
import { input } from '../../device/android/input';
import { parseSettingValue, settings } from '../../device/android/settings';

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
  title: 'Type text',
  aim: 'text-field',
  offeredTo: ['model', 'agent'],
  effects: { target: 'text-field', verifies: 'text-in-field', typedText: (args) => args.text, pressesEnter: (args) => args.submit === true },
  async run(args, context) {
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
    const way = await chooseTypingWay(args.text, context);
    let chosenIme = way.kind === 'ime' ? await selectIme(context) : undefined;
    if (target) {
      context.setTarget(target);
      await context.send(input.tap(target.x, target.y));
    }
    try {
      if (args.clear_first) {
        const count = field?.text ? field.text.length : CLEAR_FALLBACK_CHARS;
        await context.send(input.keyevent(KEY_CODES.move_end, ...Array<number>(count).fill(KEY_CODES.delete)));
      }
      try {
        for (const command of typingCommands(way, args.text)) await context.send(command);
      } catch (error) {
        // yadb was there but did not run (a ROM that blocks its input injection): the next way, if any.
        if (way.kind !== 'yadb' || !way.otherwise || !(error instanceof AdbError) || context.signal?.aborted) throw error;
        const next = await way.otherwise(`yadb could not type on this phone (${error.message.replace(/\.$/, '')})`);
        if (next.kind === 'ime') chosenIme = await selectIme(context);
        for (const command of typingCommands(next, args.text)) await context.send(command);
      }
      if (args.submit) await context.send(input.keyevent(KEY_CODES.enter));
    } finally {
      if (chosenIme?.previous && !context.signal?.aborted) await context.send(ime.set(chosenIme.previous)).catch(() => undefined);
    }
    return target;
  },
});

type FallbackWay = { kind: 'input-text' } | { kind: 'ime' };
/** With automatic typing, yadb carries what to do should it fail to run (`why` says how it failed). */
type TypingWay = FallbackWay | { kind: 'yadb'; devicePath: string; otherwise?: (why: string) => Promise<FallbackWay> };

/**
 * How to type `text`, decided before anything is sent. Printable ASCII without shell-hostile characters: `input
 * text`. Shell-hostile ASCII: yadb when it is there, else `input text` (single-quoted, it types them too). Other
 * text: yadb, else ADBKeyBoard, else a clear error naming both. Settings may force yadb or ADBKeyBoard.
 */
async function chooseTypingWay(text: string, context: ToolContext): Promise<TypingWay> {
  const ascii = isInputTextTypable(text);
  if (ascii && !hasShellHostileCharacters(text)) return { kind: 'input-text' };
  const method = await context.typing.method();
  if (method === 'adb-keyboard') {
    if (ascii) return { kind: 'input-text' };
    if (await imeEnabled(context)) return { kind: 'ime' };
    throw new InvalidCall(`${ADB_KEYBOARD_NEEDED} (Settings choose ADBKeyBoard for typing.)`);
  }
  const yadb = await context.typing.yadb();
  const withoutYadb = async (why: string): Promise<FallbackWay> => {
    if (ascii) return { kind: 'input-text' };
    if (await imeEnabled(context)) return { kind: 'ime' };
    throw new InvalidCall(`${ADB_KEYBOARD_NEEDED} yadb, which types any language without it, is not available either: ${why}.`);
  };
  if (yadb.ready) return { kind: 'yadb', devicePath: yadb.devicePath, ...(method === 'auto' && { otherwise: withoutYadb }) };
  if (method === 'yadb') throw new InvalidCall(`Settings choose yadb for typing, but ${yadb.reason}.`);
  return withoutYadb(yadb.reason);
}

const ADB_KEYBOARD_NEEDED =
  'Typing non-ASCII text needs the ADBKeyBoard input method, which is not enabled on this phone. Install ' +
  `ADBKeyBoard (https://github.com/senzhk/ADBKeyBoard) and run \`adb shell ime enable ${ADB_KEYBOARD_IME}\`, ` +
  'or type ASCII text only.';

function typingCommands(way: TypingWay, text: string): string[] {
  if (way.kind === 'input-text') return inputTextCommands(text);
  if (way.kind === 'ime') return [imeTextCommand(text)];
  // yadb types one line per call; newlines are ENTER, as with `input text`.
  return text.split('\n').flatMap((line, index) => [
    ...(index > 0 ? [input.keyevent(KEY_CODES.enter)] : []),
    ...(line ? [yadbTextCommand(way.devicePath, line)] : []),
  ]);
}

async function imeEnabled(context: ToolContext): Promise<boolean> {
  return parseImeList(await context.query(ime.listEnabled())).includes(ADB_KEYBOARD_IME);
}

/** Makes ADBKeyBoard the current input method (it is enabled); returns the method to restore. */
async function selectIme(context: ToolContext): Promise<{ previous?: string }> {
  const current = parseSettingValue(await context.query(settings.get('secure', 'default_input_method')));
  if (current === ADB_KEYBOARD_IME) return {};
  await context.send(ime.set(ADB_KEYBOARD_IME));
  return current ? { previous: current } : {};
}
