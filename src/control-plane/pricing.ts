import { z } from 'zod';
import type { TokenUsage } from '@amc/provider-clients';

/** USD per million input and output tokens, by model name. */
export const PricingSchema = z.record(
  z.string().min(1),
  z.strictObject({ inputPerMillion: z.number().min(0), outputPerMillion: z.number().min(0) }),
);
export type Pricing = z.infer<typeof PricingSchema>;

/** Cost of one decision in micro-dollars (integers add up exactly, in Redis and here); 0 for a model without a price. */
export function costMicroUsd(pricing: Pricing, model: string, usage: TokenUsage): number {
  const price = pricing[model];
  if (!price) return 0;
  return Math.round(usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion);
}
