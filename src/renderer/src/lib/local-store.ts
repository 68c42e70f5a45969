import type { z } from 'zod';

/**
 * What this browser remembers between visits (mirror size, recent goals, phone names). Read through a schema:
 * the value may be from an older version, edited by hand, or missing; anything unreadable is the fallback.
 */
export function readStored<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
  try {
    const text = localStorage.getItem(key);
    if (text === null) return fallback;
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage can be unavailable (private mode, quota): the app works, it just forgets at the next visit.
  }
}
