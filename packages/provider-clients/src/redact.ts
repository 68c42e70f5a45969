/**
 * The one redaction step: every message passes it before it is shown, stored, logged or sent over MCP. It hides
 * the secrets this process was given (registered where they enter: settings, provider clients, the control
 * plane's keys) and anything shaped like one, wherever it came from (a provider that echoes the key in an error,
 * a base URL typed with a password).
 */
export const REDACTED = '[redacted]';

/** Shorter values are too likely to be ordinary words to be replaced wherever they appear. */
const MIN_SECRET_LENGTH = 8;

const SECRET_SHAPES: ReadonlyArray<[RegExp, string]> = [
  // Provider keys: OpenAI `sk-...`, `sk-proj-...`, Anthropic `sk-ant-...`; and the control plane's host tokens.
  [/\bsk-[A-Za-z0-9_-]{12,}/g, REDACTED],
  [/\bamc_[0-9a-f]{16}_[A-Za-z0-9_-]{20,}/g, REDACTED],
  // `Authorization: Bearer <token>` quoted back by a server.
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, `$1${REDACTED}`],
  // `https://user:password@host`: the whole user part goes.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@:'"<>]*:[^\s/?#@'"<>]*@/gi, `$1${REDACTED}@`],
  // `?api_key=...`, `&key=...`, `access_token=...` in a quoted URL.
  [/([?&](?:api[_-]?key|key|access[_-]?token|token)=)[^&\s#'"<>]+/gi, `$1${REDACTED}`],
];

const registered = new Set<string>();

/** Remembers a configured key or token so that every later message hides it. Empty and short values are ignored. */
export function registerSecret(value: string | null | undefined): void {
  const secret = value?.trim();
  if (secret && secret.length >= MIN_SECRET_LENGTH) registered.add(secret);
}

/** `text` with every registered secret, every `extra` one and anything shaped like a secret replaced by [redacted]. */
export function redactSecrets(text: string, extra: Iterable<string | null | undefined> = []): string {
  let clean = text;
  for (const secret of [...registered, ...extra]) {
    if (secret && secret.length >= MIN_SECRET_LENGTH && clean.includes(secret)) clean = clean.split(secret).join(REDACTED);
  }
  for (const [shape, replacement] of SECRET_SHAPES) clean = clean.replace(shape, replacement);
  return clean;
}

/** Whether a URL carries a user name or password (refused in settings: it would be printed with every failure). */
export function urlHasCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}
