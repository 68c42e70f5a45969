import { z } from 'zod';
import { SaidSchema } from '../said';

/** A request/response pair crossing the process boundary: main validates `input`, the caller trusts `output`. */
export interface MethodDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
}

export const defineMethods = <T extends Record<string, MethodDefinition>>(methods: T): T => methods;
export const defineEvents = <T extends Record<string, z.ZodType>>(events: T): T => events;

/** An input-less method still receives an object, so later optional fields do not break callers. */
export const NoInput = z.object({}).strict();

export const RpcErrorCodeSchema = z.enum(['invalid_input', 'unknown_method', 'failed', 'unavailable']);
export const RpcErrorSchema = z.object({
  code: RpcErrorCodeSchema,
  message: z.string(),
  /** One line per invalid field, e.g. "goal: must not be empty". */
  issues: z.array(z.string()).optional(),
  /** The same lines by code (`input.at`: the field's path and why), for a window in another language. */
  issuesSaid: z.array(SaidSchema).max(100).optional(),
  /** The message's code, for a window in another language (errors that carry one). */
  said: SaidSchema.optional(),
});
export type RpcErrorCode = z.infer<typeof RpcErrorCodeSchema>;
export type RpcError = z.infer<typeof RpcErrorSchema>;
export type RpcResult<T> = { ok: true; value: T } | { ok: false; error: RpcError };
