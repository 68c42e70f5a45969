/**
 * Device groups: named sets of phones, declared once as a Settings text (`lab: SERIAL SERIAL; desk: SERIAL`) and
 * read by both uses: `amc run --group` / the app's launch (the local phones of the group) and `amc worker` (the
 * groups each offered phone belongs to, for `amc submit --group`).
 */

import type { Words } from './i18n/words';
import { nameProblem } from './names';
import { schemaSaying, type SchemaSaying } from './schema-message';

export type DeviceGroups = ReadonlyMap<string, readonly string[]>;

const ENTRY = /^([^:]+):(.*)$/s;

/** The groups, or the problems with the text (each naming the entry and the expected form). */
export function parseDeviceGroups(text: string): { groups: DeviceGroups } | { problems: SchemaSaying[] } {
  const groups = new Map<string, string[]>();
  const problems: SchemaSaying[] = [];
  for (const raw of text.split(/[;\n]/)) {
    const entry = raw.trim();
    if (!entry) continue;
    const match = ENTRY.exec(entry);
    const name = match?.[1]?.trim() ?? '';
    const serials = [...new Set((match?.[2] ?? '').split(/[\s,]+/).filter(Boolean))];
    if (!match || nameProblem(name) !== null || serials.length === 0) {
      problems.push(schemaSaying('schema.groupEntry', { entry: entry.slice(0, 60) }));
      continue;
    }
    if (groups.has(name)) problems.push(schemaSaying('schema.groupTwice', { name }));
    else groups.set(name, serials);
  }
  return problems.length ? { problems } : { groups };
}

/** The groups of a text already checked by the settings schema (a text with problems declares none). */
export function deviceGroupsOf(text: string): DeviceGroups {
  const parsed = parseDeviceGroups(text);
  return 'groups' in parsed ? parsed.groups : new Map();
}

/** The groups a phone belongs to, in declaration order. */
export function groupsOfPhone(groups: DeviceGroups, serial: string): string[] {
  return [...groups].filter(([, serials]) => serials.includes(serial)).map(([name]) => name);
}

/** Which local phones one launch runs on: every ready phone, or a declared group's phones. */
export type LaunchTargets = { all: true } | { group: string };

export class LaunchTargetError extends Error {
  override name = 'LaunchTargetError';
}

/**
 * The phones of a launch, in a stable order. A group's phone that is not ready is still listed: its own task fails
 * in plain words while the others run. Refused (LaunchTargetError) when there would be no phone at all.
 */
export function phonesOfLaunch(targets: LaunchTargets, readySerials: readonly string[], groups: DeviceGroups, words: Words): string[] {
  if ('all' in targets) {
    if (readySerials.length === 0) throw new LaunchTargetError(words.t('cli:devices.noneReady'));
    return [...readySerials].sort();
  }
  const members = groups.get(targets.group);
  if (!members) {
    const known = [...groups.keys()];
    throw new LaunchTargetError(
      known.length ? words.t('cli:devices.noSuchGroup', { group: targets.group, groups: known.join(', ') }) : words.t('cli:devices.noGroups', { group: targets.group }),
    );
  }
  return [...members];
}
