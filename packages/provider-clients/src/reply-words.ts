/**
 * A reply body or a failure message in a few words: what a server sent instead of the API's JSON (a proxy's HTML
 * page, a stack trace) is summarised, never quoted. The clients word their failures with it; the app's plain
 * reasons (src/shared/plain-words.ts) build on the same detection, so a page is recognised the same way everywhere.
 */

/** `    at fn (file.js:1:2)` lines, or the same run together on one line after whitespace was collapsed. */
const STACK_FRAME = /\s+at (?:async )?(?:[\w$.<>[\] ]+ )?\(?(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s)]*:\d+:\d+\)?/g;
const HTML_PAGE = /<(?:!doctype html|html|head|body|h1|center)\b/i;

/** Why a web page came back where an API's JSON was expected; said once, wherever a page is reported. */
const PAGE_CAUSE = "a proxy or gateway answered, not the model's API";
/** "an HTML page" and its title, as summariseBody writes it (so a summary already made is recognised again). */
const SUMMARISED_PAGE = /an HTML page(?: titled "([^"]*)")? \(a proxy or gateway answered/;

const pageWords = (title: string | undefined) => `an HTML page${title ? ` titled "${title}"` : ''}`;

/** Where a raw HTML page starts in `text`, or -1 when there is none. */
export function htmlPageStart(text: string): number {
  return text.search(HTML_PAGE);
}

/** `text` without the frames of a stack trace. */
export function withoutStackFrames(text: string): string {
  return text.replace(STACK_FRAME, '');
}

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
  const oneLine = withoutStackFrames(body).replace(/\s+/g, ' ').trim();
  return oneLine.length > maxLength ? `${oneLine.slice(0, maxLength)}…` : oneLine;
}
