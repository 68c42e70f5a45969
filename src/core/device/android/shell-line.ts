/**
 * One shell command line from an executable and its arguments: each word that holds anything but plain letters,
 * digits and `_./:=@%+,-` is single-quoted, so an argument is always one word to the phone's shell.
 */
export function shellLine(words: readonly (string | number)[]): string {
  return words.map((word) => quoteWord(String(word))).join(' ');
}

function quoteWord(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Command lines the phone's shell runs one after another, each whatever the one before did (`;`). */
export function inTurn(...lines: string[]): string {
  return lines.join('; ');
}

/** Command lines the phone's shell runs while each succeeds (`&&`). */
export function whileSucceeding(...lines: string[]): string {
  return lines.join(' && ');
}

/** A command line whose output the next one reads (`|`). */
export function piped(...lines: string[]): string {
  return lines.join(' | ');
}

/** A command line whose output is thrown away (its exit status stays). */
export function silenced(line: string): string {
  return `${line} >/dev/null`;
}
