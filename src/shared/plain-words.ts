/**
 * Reasons as a person reads them. Main records failures as `<ErrorName>: <message>` (seed D7 keeps that in the
 * task record); every surface shows them through `plainReason`, which drops the class name and anything that
 * looks like a stack trace, and says "an HTML page" instead of quoting one.
 */

/** A leading class name: `AdbError: `, `ToolCallUnavailable: `, `TypeError: `, `Error: `. */
const CLASS_NAME_PREFIX = /^(?:(?:[A-Z][a-z0-9]+){2,}|Error|[A-Z][a-z]+Error): /;
/** `    at fn (file.js:1:2)` lines, or the same run together on one line after whitespace was collapsed. */
const STACK_FRAME = /\s+at (?:async )?(?:[\w$.<>[\] ]+ )?\(?(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s)]*:\d+:\d+\)?/g;
const HTML_PAGE = /<(?:!doctype html|html|head|body|h1|center)\b/i;
const MAX_LENGTH = 400;

export function withoutClassName(message: string): string {
  let text = message;
  // A wrapped cause can nest names ("ToolCallUnavailable: TypeError: ...").
  while (CLASS_NAME_PREFIX.test(text)) text = text.replace(CLASS_NAME_PREFIX, '');
  return text;
}

/** Why a web page came back where an API's JSON was expected; said once, wherever a page is reported. */
const PAGE_CAUSE = "a proxy or gateway answered, not the model's API";
/** "an HTML page" and its title, as summariseBody writes it (so a summary already made is recognised again). */
const SUMMARISED_PAGE = /an HTML page(?: titled "([^"]*)")? \(a proxy or gateway answered/;

const pageWords = (title: string | undefined) => `an HTML page${title ? ` titled "${title}"` : ''}`;

/**
 * The HTML page in a reply or a failure message in a few words ("an HTML page titled \"502 Bad Gateway\""), whether
 * the page is still raw or summariseBody has already summarised it; null when there is no page.
 */
export function htmlPageIn(text: string): string | null {
  if (HTML_PAGE.test(text)) {
    const title = (/<title[^>]*>([^<]{1,120})<\/title>/i.exec(text) ?? /<h1[^>]*>([^<]{1,120})<\/h1>/i.exec(text))?.[1]?.trim();
    return pageWords(title);
  }
  const summarised = SUMMARISED_PAGE.exec(text);
  return summarised ? pageWords(summarised[1]) : null;
}

/** A provider's or server's reply body in a few words: its own message, never a page or a stack trace. */
export function summariseBody(body: string, maxLength = 300): string {
  const page = HTML_PAGE.test(body) ? htmlPageIn(body) : null;
  if (page) return `${page} (${PAGE_CAUSE})`;
  const oneLine = body.replace(STACK_FRAME, '').replace(/\s+/g, ' ').trim();
  return oneLine.length > maxLength ? `${oneLine.slice(0, maxLength)}…` : oneLine;
}

/** A recorded failure reason as shown in the UI, the report and the CLI; a list ("problems:\n  - a") keeps its lines. */
export function plainReason(reason: string): string {
  const text = withoutClassName(reason.trim());
  const page = text.search(HTML_PAGE);
  if (page >= 0) {
    // What was said before the page (e.g. "refused the request (HTTP 502): "), then the page in a few words.
    return `${text.slice(0, page)}${summariseBody(text.slice(page))}`;
  }
  const lines = text
    .replace(STACK_FRAME, '')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trimEnd())
    .filter((line) => line.trim() !== '');
  const joined = lines.join('\n');
  return joined.length > MAX_LENGTH * 3 ? `${joined.slice(0, MAX_LENGTH * 3)}…` : joined;
}
