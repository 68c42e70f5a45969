// How long a replica may serve a token from memory instead of reading it from a real redis-server: a change
// (revocation) counts at once through its notice, and within TOKEN_FRESH_MS when the notice never came.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore, TOKEN_FRESH_MS } from '../../src/control-plane/redis-store';
import type { TokenRecord } from '../../src/control-plane/token-store';
import { startTestRedis, type TestRedis } from '../support/redis-server';
import { until } from './replicas';

let redis: TestRedis;
let raw: Redis;
const stores: RedisStore[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  raw?.disconnect();
  await redis?.dispose();
});

/** A replica's token store, connected, on the clock `now` gives. */
async function replicaStore(now: () => number): Promise<RedisStore> {
  const store = new RedisStore(redis.url, { now });
  stores.push(store);
  await store.connected();
  return store;
}

/** Rewrites a token as revoked behind the service's back: no notice is published. */
async function revokeWithoutNotice(record: TokenRecord): Promise<void> {
  await raw.set(`amc:cp:token:${record.id}`, JSON.stringify({ ...record, revokedAt: new Date().toISOString() }));
}

/** A replica's store on a clock the test moves, after it has read the token once while hearing change notices. */
async function replicaThatRemembers(token: string) {
  let now = Date.now();
  const store = await replicaStore(() => now);
  expect((await store.verify(`Bearer ${token}`)).ok).toBe(true);
  // The notices' subscription comes up beside the first read; a read sent after it (later on the clock) is the
  // one served from memory.
  await new Promise((resolve) => setTimeout(resolve, 200));
  now += 1;
  expect((await store.verify(`Bearer ${token}`)).ok).toBe(true);
  return { store, advance: (ms: number) => (now += ms) };
}

async function createToken(name: string) {
  const admin = new RedisStore(redis.url);
  stores.push(admin);
  return { admin, ...(await admin.create({ name })) };
}

describe('tokens remembered by a replica on Redis', () => {
  it('Scenario: A token changed in Redis without a notice is seen within half a second', async () => {
    const { token, record } = await createToken('silent-change');
    const { store, advance } = await replicaThatRemembers(token);
    await revokeWithoutNotice(record);
    // Served from memory: the store did not read Redis for this decision.
    expect(await store.verify(`Bearer ${token}`)).toMatchObject({ ok: true });
    advance(TOKEN_FRESH_MS);
    expect(await store.verify(`Bearer ${token}`)).toMatchObject({ ok: false, reason: 'revoked' });
  });

  it('Scenario: A revocation counts at once on a replica that remembers the token', async () => {
    const { admin, token, record } = await createToken('revoked-elsewhere');
    const { store } = await replicaThatRemembers(token);
    await admin.revoke(record.id);
    // The clock stands still: only the notice can tell this replica, and it does before any wait of the test's.
    await until(async () => !(await store.verify(`Bearer ${token}`)).ok, 'the replica to refuse the revoked token', 1000);
    expect(await store.verify(`Bearer ${token}`)).toMatchObject({ ok: false, reason: 'revoked' });
  });

  it('a token read before the change notices were heard is read again, not served from memory', async () => {
    const { token, record } = await createToken('read-too-early');
    const store = await replicaStore(() => 1_000);
    // This first read is sent before the subscription is up: a notice could have slipped past it.
    expect((await store.verify(`Bearer ${token}`)).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await revokeWithoutNotice(record);
    expect(await store.verify(`Bearer ${token}`)).toMatchObject({ ok: false, reason: 'revoked' });
  });

  it('a wrong secret for a remembered token is refused, and the token itself is still served', async () => {
    const { token } = await createToken('wrong-secret');
    const { store } = await replicaThatRemembers(token);
    const wrong = `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    expect(await store.verify(`Bearer ${wrong}`)).toMatchObject({ ok: false });
    expect(await store.verify(`Bearer ${token}`)).toMatchObject({ ok: true });
  });
});
