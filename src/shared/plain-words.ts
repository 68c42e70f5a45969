/**
 * Words as a person reads them: anything that looks like a stack trace goes, and an HTML page is named in a few
 * words instead of quoted (the page and the stack frames are recognised as the provider clients recognise them in
 * a reply). A task's failure is read through `failureWordsOf` (task-failure.ts), which has the error's name apart.
 */
import { htmlPageStart, summariseBody, withoutStackFrames } from '@amc/provider-clients/contract';

/** A leading class name: `AdbError: `, `ToolCallUnavailable: `, `TypeError: `, `Error: `. */
const CLASS_NAME_PREFIX = /^(?:(?:[A-Z][a-z0-9]+){2,}|Error|[A-Z][a-z]+Error): /;
const MAX_LENGTH = 400;

/** A message in plain words; a list ("problems:\n  - a") keeps its lines. */
export function plainWords(message: string): string {
  const text = message.trim();
  const page = htmlPageStart(text);
  if (page >= 0) {
    // What was said before the page (e.g. "refused the request (HTTP 502): "), then the page in a few words.
    return `${text.slice(0, page)}${summariseBody(text.slice(page))}`;
  }
  const lines = withoutStackFrames(text)
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trimEnd())
    .filter((line) => line.trim() !== '');
  const joined = lines.join('\n');
  return joined.length > MAX_LENGTH * 3 ? `${joined.slice(0, MAX_LENGTH * 3)}…` : joined;
}

/**
 * An error caught at a surface (a command, a tool call, an MCP request) in plain words: its text may begin with
 * the class name of the error that carried it, which a person has no use for.
 */
export function plainReason(reason: string): string {
  let text = reason.trim();
  // A wrapped cause can nest names ("ToolCallUnavailable: TypeError: ...").
  while (CLASS_NAME_PREFIX.test(text)) text = text.replace(CLASS_NAME_PREFIX, '');
  return plainWords(text);
}
