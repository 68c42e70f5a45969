// When a local schedule runs: its cron pattern, read by croner in the computer's local time.
import { Cron } from 'croner';
import { say, type Said, type Saying } from '../shared/said';

/** A pattern that is not a schedule: its English message, and its code for the window (IPC passes `said` on). */
export class ScheduleTimeError extends Error {
  override name = 'ScheduleTimeError';
  readonly said: Said;
  constructor({ text, said }: Saying) {
    super(text);
    this.said = said;
  }
}

/** Five fields only (minute hour day month weekday), as people write cron; croner's seconds field is not offered. */
export function checkCron(pattern: string): Cron {
  const fields = pattern.trim().split(/\s+/);
  if (fields.length !== 5) {
    throw new ScheduleTimeError(say('schedule.cronFields', { pattern }));
  }
  try {
    return new Cron(pattern, { paused: true });
  } catch (error) {
    throw new ScheduleTimeError(say('schedule.cronRefused', { pattern, why: error instanceof Error ? error.message : String(error) }));
  }
}

/** The first planned time strictly after `afterMs`, or null when the pattern never runs again. */
export function nextRunAfter(pattern: string, afterMs: number): number | null {
  return checkCron(pattern).nextRun(new Date(afterMs))?.getTime() ?? null;
}

/** Planned times in (fromMs, toMs], at most `limit` of them listed (the count goes on), for runs missed while closed. */
export function runsBetween(pattern: string, fromMs: number, toMs: number, limit = 10_000): { count: number; first: number | null; last: number | null } {
  const cron = checkCron(pattern);
  let count = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (let next = cron.nextRun(new Date(fromMs)); next && next.getTime() <= toMs && count < limit; next = cron.nextRun(next)) {
    count += 1;
    first ??= next.getTime();
    last = next.getTime();
  }
  return { count, first, last };
}
