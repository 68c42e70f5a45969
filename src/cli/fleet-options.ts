// Options every fleet command shares: where the fleet's Redis is (never echoed with its password) and what a job
// carries from the command line.
import { UsageError } from './command';
import type { Destination } from '../fleet/client';
import { terminalWords } from './terminal-words';
import { saidWords } from '../shared/supervision-words';

export const redisOption = { redis: { type: 'string' } } as const;
export const REDIS_USAGE = '--redis URL';
/** The variable that gives the address instead of --redis, so a password stays out of the process list. */
export const REDIS_ENV = 'AMC_FLEET_REDIS';

/** The Fleet Redis URL saved in Settings (with AMC_FLEET_REDIS applied); null when none, or the secrets cannot be read. */
async function savedFleetRedis(): Promise<string | null> {
  const { createConfigSource } = await import('../core/runtime/config');
  const config = await createConfigSource().load().catch(() => null);
  return config?.secrets.AMC_FLEET_REDIS || null;
}

/**
 * The fleet's Redis address from --redis, else AMC_FLEET_REDIS, else the one saved in Settings → Fleet, checked; a
 * bad one never has its password printed.
 */
export async function fleetRedis(values: { redis?: string }): Promise<URL> {
  const text = values.redis ?? (process.env[REDIS_ENV] || (await savedFleetRedis()));
  if (!text) throw new UsageError(terminalWords().t('cli:fleet.noRedis', { env: REDIS_ENV }));
  const { parseRedisUrl, RedisUrlError } = await import('../fleet/redis');
  try {
    return parseRedisUrl(text);
  } catch (error) {
    if (error instanceof RedisUrlError) throw new UsageError(terminalWords().t('cli:fleet.redisOption', { reason: saidWords(error.message, error.said, terminalWords()) }));
    throw error;
  }
}

export const destinationOptions = {
  device: { type: 'string', short: 's' },
  group: { type: 'string' },
  any: { type: 'boolean' },
} as const;
export const DESTINATION_USAGE = '(--device SERIAL | --group NAME | --any)';

/** Exactly one of --device, --group and --any. */
export function destinationOf(values: { device?: string; group?: string; any?: boolean }): Destination {
  const given = [values.device !== undefined, values.group !== undefined, values.any === true].filter(Boolean).length;
  if (given !== 1) throw new UsageError(terminalWords().t('cli:usageError.whereGoalRuns'));
  if (values.device !== undefined) {
    if (!values.device.trim()) throw new UsageError(terminalWords().t('cli:usageError.deviceNeedsSerial'));
    return { device: values.device.trim() };
  }
  if (values.group !== undefined) {
    if (!values.group.trim()) throw new UsageError(terminalWords().t('cli:usageError.groupNeedsName'));
    return { group: values.group.trim() };
  }
  return { any: true };
}
