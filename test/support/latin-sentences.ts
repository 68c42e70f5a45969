/**
 * Finds English left in what a Chinese person reads: runs of three or more Latin-script words. Names, paths,
 * numbers and code are not sentences: commands (`amc …`, --options), quoted or bracketed code (`…`, {…}, "…"),
 * URLs, paths, serials, and the names given in `names` (the app's name, an app on the phone) are taken out first.
 */
const CODE = [
  /https?:\/\/\S+/g,
  /`[^`]*`/g,
  /\{[^{}]*\}/g,
  /"[^"]*"/g,
  /'[^']*'/g,
  /“[^”]*”/g,
  /(?:^|\s)(?:\/|\.\/|~\/)[^\s，。；：（）]*/g,
  /\bamc(?: [a-z-]+)+/g,
  /--?[a-z][a-z-]*/g,
  /\b[\w.-]+[/:_.][\w./:-]+/g,
  // A usage line's placeholders in capitals, listed: ID,APP,PREFIX*
  /\b[A-Z][A-Z0-9_]*(?:[,|*]+[A-Z][A-Z0-9_]*)+\**/g,
];
const SENTENCE = /[A-Za-z][A-Za-z']*(?:[ ,;]+[A-Za-z][A-Za-z']*){2,}/g;

export function latinSentences(text: string, names: readonly string[] = []): string[] {
  let rest = text;
  for (const name of [...names].sort((a, b) => b.length - a.length)) rest = rest.split(name).join(' ');
  for (const pattern of CODE) rest = rest.replace(pattern, ' ');
  return [...rest.matchAll(SENTENCE)].map((match) => match[0]);
}
