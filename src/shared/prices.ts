import type { TokenUsage } from '@amc/provider-clients/contract';
import { schemaSaying, type SchemaSaying } from './schema-message';

/**
 * The price table: what a model's tokens cost, in US dollars per million input and output tokens. It is a
 * Settings text a person can edit, one entry per model, separated by `;` or new lines:
 * `claude-sonnet-4-6 3/15; gpt-5.4-mini 0.75/4.5`. A model matches the entry of its own name, or the entry it
 * extends by a date (a snapshot such as `claude-haiku-4-5-20251001` or `gpt-5.4-mini-2026-03-17`). Any other
 * model has no cost (`gpt-5.4-pro` is not `gpt-5.4`): none is ever guessed.
 */

export interface ModelPrice {
  model: string;
  /** USD per million input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
}

/** Published list prices of the providers' current models (USD per million tokens, standard tier). */
export const DEFAULT_PRICE_TABLE = [
  'claude-opus-4-5 5/25',
  'claude-sonnet-4-6 3/15',
  'claude-sonnet-4-5 3/15',
  'claude-haiku-4-5 1/5',
  'gpt-5.5 5/30',
  'gpt-5.4 2.5/15',
  'gpt-5.4-mini 0.75/4.5',
  'gpt-5.4-nano 0.2/1.25',
].join('; ');

const ENTRY = /^(\S+)\s+(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/;

/** The table's entries, or the problems with it (each naming the entry and the expected form). */
export function parsePriceTable(text: string): { prices: ModelPrice[] } | { problems: SchemaSaying[] } {
  const prices: ModelPrice[] = [];
  const problems: SchemaSaying[] = [];
  for (const raw of text.split(/[;\n]/)) {
    const entry = raw.trim();
    if (!entry) continue;
    const match = ENTRY.exec(entry);
    if (!match) {
      problems.push(schemaSaying('schema.priceEntry', { entry: entry.slice(0, 60) }));
      continue;
    }
    const [, model, input, output] = match as unknown as [string, string, string, string];
    if (prices.some((price) => price.model === model)) problems.push(schemaSaying('schema.priceTwice', { model }));
    else prices.push({ model, input: Number(input), output: Number(output) });
  }
  return problems.length ? { problems } : { prices };
}

const SNAPSHOT_DATE = /^-(\d{8}|\d{4}-\d{2}-\d{2})$/;

/** The entry that prices `model`: its own name, or the name it extends by a snapshot date; null otherwise. */
export function priceOf(model: string, prices: readonly ModelPrice[]): ModelPrice | null {
  return prices.find((price) => model === price.model || (model.startsWith(price.model) && SNAPSHOT_DATE.test(model.slice(price.model.length)))) ?? null;
}

/** What `usage` cost in USD at `price`. */
export function costOf(usage: TokenUsage, price: ModelPrice): number {
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/**
 * A cost as a person reads it, in the reader's locale like every other number ("$0.0123" in en-US, "0,0123 $" in
 * de-DE): more digits for tiny amounts; `locale` undefined means the runtime's default.
 */
export function formatUsd(amount: number, locale?: string): string {
  const digits = amount === 0 ? 0 : amount < 0.01 ? 4 : amount < 1 ? 3 : 2;
  return amount.toLocaleString(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });
}
