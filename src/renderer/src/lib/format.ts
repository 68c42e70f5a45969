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

/** `key=value` pairs with strings quoted, for one line of a timeline card. */
export function formatArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .map(([key, value]) => `${key}=${JSON.stringify(value) ?? String(value)}`)
    .join(', ');
}
