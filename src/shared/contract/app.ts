import { z } from 'zod';
import { defineEvents, defineMethods, NoInput } from './define';

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** How this window reaches main: the Electron preload or the loopback web host. */
  transport: z.enum(['electron', 'web']),
  platform: z.string(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const HeartbeatSchema = z.object({ seq: z.number().int().nonnegative(), at: z.number(), uptimeMs: z.number() });
export type Heartbeat = z.infer<typeof HeartbeatSchema>;

export const appMethods = defineMethods({
  'app.info': { input: NoInput, output: AppInfoSchema },
  /** A round trip that proves requests are validated: main echoes the nonce with its own clock. */
  'app.ping': {
    input: z.object({ nonce: z.string().min(1).max(128) }).strict(),
    output: z.object({ nonce: z.string(), serverTime: z.number() }),
  },
});

export const appEvents = defineEvents({
  'app.heartbeat': HeartbeatSchema,
});
