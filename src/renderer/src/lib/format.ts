import type { TokenUsage } from '../../../shared/decision';
import { tokensLabel } from '../../../shared/task-words';

export function formatTokens(usage: TokenUsage | null | undefined): string {
  return usage ? tokensLabel(usage) : '—';
}

export function formatTime(at: number | null | undefined): string {
  if (at == null) return '—';
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** `key=value` pairs with strings quoted, for one line of a timeline card. */
export function formatArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .map(([key, value]) => `${key}=${JSON.stringify(value) ?? String(value)}`)
    .join(', ');
}
