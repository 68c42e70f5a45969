// Which phones a command drives: one (-s SERIAL, or the only one), every connected phone (--all), or a device group
// (--group NAME). `amc run` and `amc flow run` read them alike.
import { UsageError } from './command';
import type { LaunchTargets } from '../shared/device-groups';
import { terminalWords } from './terminal-words';

export const launchTargetOptions = {
  serial: { type: 'string', short: 's' },
  all: { type: 'boolean' },
  group: { type: 'string' },
} as const;
export const LAUNCH_TARGETS_USAGE = '[-s SERIAL | --all | --group NAME]';

/** Several phones at once (--all or --group NAME), or null for one phone (-s SERIAL or the only one). */
export function launchTargetsOf(values: { serial?: string; all?: boolean; group?: string }): LaunchTargets | null {
  const given = [values.serial !== undefined, values.all === true, values.group !== undefined].filter(Boolean).length;
  if (given > 1) throw new UsageError(terminalWords().t('cli:usageError.phones'));
  if (values.all) return { all: true };
  if (values.group === undefined) return null;
  if (!values.group.trim()) throw new UsageError(terminalWords().t('cli:usageError.groupNeedsName'));
  return { group: values.group.trim() };
}
