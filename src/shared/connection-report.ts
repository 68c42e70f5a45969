import { z } from 'zod';
import { SaidSchema } from './said';

/** What one "Test connection" found, in plain words; the same for the Settings button and `amc doctor`. */
export const CONNECTION_RESULTS = ['ok', 'not-configured', 'wrong-key', 'unknown-model', 'unreachable', 'rate-limited', 'html-page', 'failed'] as const;

export const ConnectionReportSchema = z.object({
  result: z.enum(CONNECTION_RESULTS),
  /** One sentence: what happened and, when not ok, what to do. */
  message: z.string(),
  /** The message's code, for a window in another language (absent when the words are not main's own). */
  said: SaidSchema.optional(),
  /** The model that answered (direct), or null when the control plane chooses it. */
  model: z.string().nullable(),
  latencyMs: z.number().nonnegative().nullable(),
  /** What was tested, e.g. "Anthropic direct" or "cloud proxy at https://cp.example.com". */
  target: z.string(),
  /** What was tested, by its code (absent in a report from an older main). */
  targetSaid: SaidSchema.optional(),
});
export type ConnectionReport = z.infer<typeof ConnectionReportSchema>;
