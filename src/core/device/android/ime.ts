import { shellLine } from './shell-line';

/** The ADBKeyBoard input method (https://github.com/senzhk/ADBKeyBoard), which types any text by broadcast. */
export const ADB_KEYBOARD_IME = 'com.android.adbkeyboard/.AdbIME';

/** `ime`, the input method manager. */
export const ime = {
  /** The enabled input methods, one id a line. */
  listEnabled: () => shellLine(['ime', 'list', '-s']),
  set: (id: string) => shellLine(['ime', 'set', id]),
};

/** `ime list -s` output -> the enabled input method ids. */
export function parseImeList(output: string): string[] {
  return output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^[\w.]+\/[\w.$]+$/.test(line));
}
