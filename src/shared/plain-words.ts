/**
 * Reasons as a person reads them. Main records failures as `<ErrorName>: <message>` (seed D7 keeps that in the
 * task record); every surface shows them through `plainReason`, which drops the class name and anything that
 * looks like a stack trace, and says "an HTML page" instead of quoting one (the page and the stack frames are
 * recognised as the provider clients recognise them in a reply).
 */
import { htmlPageStart, summariseBody, withoutStackFrames } from '@amc/provider-clients/contract';

/** A leading class name: `AdbError: `, `ToolCallUnavailable: `, `TypeError: `, `Error: `. */
const CLASS_NAME_PREFIX = /^(?:(?:[A-Z][a-z0-9]+){2,}|Error|[A-Z][a-z]+Error): /;
const MAX_LENGTH = 400;

export function withoutClassName(message: string): string {
  let text = message;
  // A wrapped cause can nest names ("ToolCallUnavailable: TypeError: ...").
  while (CLASS_NAME_PREFIX.test(text)) text = text.replace(CLASS_NAME_PREFIX, '');
  return text;
}

/** A recorded failure reason as shown in the UI, the report and the CLI; a list ("problems:\n  - a") keeps its lines. */
export function plainReason(reason: string): string {
  const text = withoutClassName(reason.trim());
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
