// The app's Fleet view: what `amc fleet` prints, read from the Redis set in Settings (the AMC_FLEET_REDIS secret).
// The address is shown without its password; a problem is told in plain words, never with the password.
import type { FleetViewResult } from '../shared/contract/fleet';
import { redactSecrets } from '@amc/provider-clients';
import type { RuntimeConfig } from '../core/runtime/config';

export async function readFleetView(config: RuntimeConfig): Promise<FleetViewResult> {
  const address = config.secrets.AMC_FLEET_REDIS;
  if (!address) return { kind: 'not-set' };
  // Loaded only when a Redis is set: BullMQ stays out of the app's start.
  const { parseRedisUrl, redisLabel, RedisUrlError } = await import('../fleet/redis');
  let url: URL;
  try {
    url = parseRedisUrl(address);
  } catch (error) {
    if (error instanceof RedisUrlError) return { kind: 'problem', address: null, problem: error.message, problemSaid: error.said };
    throw error;
  }
  const { FleetClient } = await import('../fleet/client');
  try {
    const client = await FleetClient.open(url);
    try {
      return { kind: 'fleet', address: redisLabel(url), overview: await client.overview() };
    } finally {
      await client.close();
    }
  } catch (error) {
    const problem = redactSecrets(error instanceof Error ? error.message : String(error), [address]);
    return { kind: 'problem', address: redisLabel(url), problem, ...(error instanceof RedisUrlError ? { problemSaid: error.said } : {}) };
  }
}
