// Why BullMQ refused a fleet schedule, by code: its cron reader's (cron-parser's) messages we know are worded as ours,
// in the reader's language; anything else is our sentence with the library's own text quoted after it.
import { say, type Saying } from '../shared/said';

/** cron-parser's messages (as BullMQ passes them on), each with the code that says it and the values it names. */
const KNOWN: ReadonlyArray<{ pattern: RegExp; say: (cron: string, found: RegExpMatchArray) => Saying }> = [
  { pattern: /^Constraint error, got value (\S+) expected range (\d+)-(\d+)$/, say: (cron, [, value, least, most]) => say('fleetSchedule.outOfRange', { pattern: cron, value: value!, least: least!, most: most! }) },
  { pattern: /^Invalid characters, got value: (.+)$/, say: (cron, [, value]) => say('fleetSchedule.invalidCharacters', { pattern: cron, value: value! }) },
  { pattern: /^Validation error, cannot resolve alias "(.+)"$/, say: (cron, [, value]) => say('fleetSchedule.unknownName', { pattern: cron, value: value! }) },
  { pattern: /^Constraint error, cannot repeat at every 0 time\.?$/, say: (cron) => say('fleetSchedule.zeroStep', { pattern: cron }) },
  { pattern: /^Invalid range: (\S+), min\(\d+\) > max\(\d+\)$/, say: (cron, [, range]) => say('fleetSchedule.backwardRange', { pattern: cron, range: range! }) },
  { pattern: /^Invalid explicit day of month definition$/, say: (cron) => say('fleetSchedule.noSuchDay', { pattern: cron }) },
];

/** The refusal of a schedule BullMQ would not add: a known cron problem by its own code, else BullMQ's words quoted. */
export function scheduleRefusal(error: unknown, when: { cron: string } | { everySeconds: number }): Saying {
  const why = error instanceof Error ? error.message : String(error);
  if ('cron' in when) {
    for (const known of KNOWN) {
      const found = why.match(known.pattern);
      if (found) return known.say(when.cron, found);
    }
  }
  return say('fleetSchedule.refused', { why });
}
