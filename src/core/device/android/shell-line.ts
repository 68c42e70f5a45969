/**
 * One shell command line from an executable and its arguments: each word that holds anything but plain letters,
 * digits and `_./:=@%+,-` is single-quoted, so an argument is always one word to the phone's shell.
 */
export function shellLine(words: readonly string[]): string {
  return words.map((word) => (/^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}
