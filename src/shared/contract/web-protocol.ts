import { z } from 'zod';

/** Messages of the WebSocket transport (text frames). Binary frames carry mirror frames (see frame.ts). */
export const WebRequestSchema = z.object({
  id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  method: z.string().max(100),
  input: z.unknown(),
});
export type WebRequest = z.infer<typeof WebRequestSchema>;

export type WebServerMessage =
  | { type: 'result'; id: number | null; result: { ok: true; value: unknown } | { ok: false; error: unknown } }
  | { type: 'event'; name: string; payload: unknown };

/** The page's content security policy, shared by the Electron shell and the web host. */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
