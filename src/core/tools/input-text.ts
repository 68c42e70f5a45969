/**
 * Turning text into phone commands. `input text` takes one shell word, turns `%s` into a space and
 * accepts printable ASCII only; everything else goes through the ADBKeyBoard IME broadcast.
 */
import { am } from '../device/android/am';
import { appProcess } from '../device/android/app-process';
import { input } from '../device/android/input';
import { YADB } from '../device/helpers/catalog';
import { KEY_CODES } from './actions/keys';

/** Printable ASCII plus newline: what `input text` (with ENTER for newlines) can type. */
export function isInputTextTypable(text: string): boolean {
  return /^[\x20-\x7e\n]*$/.test(text);
}

/**
 * Characters whose meaning differs between the quoting layers a command crosses (the host, adb's shell, the
 * phone's `sh`, `input`): typed with yadb when it is there, though single-quoted `input text` also types them.
 */
export function hasShellHostileCharacters(text: string): boolean {
  return /[$`'"\\]/.test(text);
}

/** The yadb command line that types `text` (any Unicode) into the focused field. */
export function yadbTextCommand(devicePath: string, text: string): string {
  const folder = devicePath.slice(0, devicePath.lastIndexOf('/')) || '/';
  return appProcess.run({ classPath: devicePath, mainClass: YADB.mainClass }, folder, ['-keyboard', text]);
}

/** Control characters other than newline cannot be typed as text (tabs and the like are keys). */
export function hasUntypableControls(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if ((code < 0x20 && char !== '\n') || code === 0x7f) return true;
  }
  return false;
}

/** Longest text per `input text` call: long commands are slow to inject and some shells cap the line. */
const MAX_CHUNK = 200;

/**
 * The shell commands that type `text` with `input text`: spaces become `%s`, a literal `%s` is split
 * across two calls (so `input` cannot mistake it for a space), newlines become ENTER key events.
 */
export function inputTextCommands(text: string): string[] {
  const commands: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (index > 0) commands.push(input.keyevent(KEY_CODES.enter));
    // `input` reads '%' + 's' as a space, so a literal "%s" is typed as '%' and 's' in separate calls.
    const pieces = line.split(/(?<=%)(?=s)/);
    for (const piece of pieces) {
      for (let start = 0; start < piece.length; start += MAX_CHUNK) {
        const chunk = piece.slice(start, start + MAX_CHUNK).replace(/ /g, '%s');
        commands.push(input.text(chunk));
      }
    }
  });
  return commands;
}

/** The IME broadcast that types `text` (any Unicode) when ADBKeyBoard is the current input method. */
export function imeTextCommand(text: string): string {
  return am.broadcast({ action: 'ADB_INPUT_B64', extras: { msg: Buffer.from(text, 'utf8').toString('base64') } });
}
