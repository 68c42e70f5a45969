import type { TokenUsage } from '@amc/provider-clients/contract';
import type { Words } from '../../../shared/i18n/translate';
import { tokensLabel } from '../../../shared/task-words';

export function formatTokens(usage: TokenUsage | null | undefined, words: Words): string {
  return usage ? tokensLabel(usage, undefined, words) : words.t('common:unknown');
}

/** A moment in the window's locale (the browser's own in English, Chinese dates in Chinese). */
export function formatTime(at: number | null | undefined, words: Words): string {
  if (at == null) return words.t('common:unknown');
  return new Date(at).toLocaleString(words.locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A moment as short as a one-line row allows: the time alone today, the day and time this year, the date before
 * (the whole moment is formatTime's, for a tooltip).
 */
export function formatWhen(at: number | null | undefined, words: Words, now = Date.now()): string {
  if (at == null) return words.t('common:unknown');
  const date = new Date(at);
  const today = new Date(now);
  if (date.toDateString() === today.toDateString()) return date.toLocaleTimeString(words.locale, { timeStyle: 'short' });
  if (date.getFullYear() === today.getFullYear()) return date.toLocaleString(words.locale, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
  return date.toLocaleDateString(words.locale, { dateStyle: 'medium' });
}

/** A task's tokens in and out as one short number ("15K", "1.5万"); formatTokens gives them apart. */
export function formatTokenCount(usage: TokenUsage | null | undefined, words: Words): string {
  if (!usage) return words.t('common:unknown');
  return new Intl.NumberFormat(words.locale, { notation: 'compact', maximumFractionDigits: 1 }).format(usage.inputTokens + usage.outputTokens);
}

/** `key=value` pairs with strings quoted, for one line of a timeline card. */
export function formatArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .map(([key, value]) => `${key}=${JSON.stringify(value) ?? String(value)}`)
    .join(', ');
}
