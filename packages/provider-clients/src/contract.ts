/**
 * The entry for code that must stay free of Node and of the provider SDKs (the app's src/shared and its renderer):
 * the decision contract every client speaks, the smallest thinking budget a client accepts, the redaction step
 * every message passes, and a reply body in a few words. The main entry (index.ts) re-exports all of it beside
 * the clients.
 */
export * from './decision';
export { MIN_THINKING_BUDGET_TOKENS } from './client-options';
export { REDACTED, redactSecrets, registerSecret, urlHasCredentials } from './redact';
export { htmlPageIn, htmlPageStart, summariseBody, withoutStackFrames } from './reply-words';
