// A rolling failure as an operator would see it: two replicas behind a load balancer, `amc run` tasks going
// through cloud-proxy, and one replica SIGKILLed while it holds a decision. Every task still completes.
import { MODEL_PLANS_EVERY_STEP } from '../support/planner-env';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/control-plane/redis-store';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { runAmc } from '../support/cli';
import { startTestRedis, type TestRedis } from '../support/redis-server';
import { startTcpBalancer, type TcpBalancer } from '../support/tcp-balancer';
import { finish, scriptedPolicy, startProviderFake, tapLabel, type FakePolicy, type ProviderFake } from '../fakes/index';
import { startReplica, type Replica } from './replicas';

let harness: AdbHarness;
let redis: TestRedis;
let amcHome: string;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  harness = await startAdbHarness();
  redis = await startTestRedis();
  amcHome = await mkdtemp(path.join(tmpdir(), 'amc-cp-failover-home-'));
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await harness?.stop();
  await redis?.dispose();
  if (amcHome) await rm(amcHome, { recursive: true, force: true });
});

interface PhoneState {
  settings?: { wifi?: boolean };
}

const wifiOff = () => scriptedPolicy([tapLabel('Settings'), tapLabel(/^Network & internet/), tapLabel(/^Wi-Fi \|/)], finish(true, 'Wi-Fi is off'));

describe('a replica killed mid-load', () => {
  it('Scenario: A replica SIGKILLed while it holds a decision costs no task', async () => {
    // One script shared by both replicas' providers, so the task's steps go on wherever a decision lands.
    let script: FakePolicy = wifiOff();
    const shared: FakePolicy = (turn) => script(turn);
    let victim: Replica | null = null;
    let victimCalls = 0;
    let killed = false;
    const fakeA = await startProviderFake('anthropic', shared);
    // The victim answers its first decision, and is killed while it holds its second (which it never answers).
    const fakeB: ProviderFake = await startProviderFake('anthropic', (turn) => {
      victimCalls += 1;
      if (victimCalls === 2 && victim) {
        killed = true;
        victim.child.kill('SIGKILL');
        return { kind: 'hang' };
      }
      return shared(turn);
    });
    cleanups.push(() => fakeA.close(), () => fakeB.close());
    const env = { ANTHROPIC_API_KEY: fakeA.apiKey };
    const b = await startReplica({ fake: fakeB, redisUrl: redis.url, env });
    victim = b;
    const a = await startReplica({ fake: fakeA, redisUrl: redis.url, env });
    cleanups.push(() => a.stop(), () => b.stop());
    const port = (url: string) => Number(new URL(url).port);
    // The victim first: the host's first connection (kept alive for the next decisions) goes to it.
    const balancer: TcpBalancer = await startTcpBalancer([b, a].map((r) => ({ host: '127.0.0.1', port: port(r.url) })));
    cleanups.push(() => balancer.close());
    const store = new RedisStore(redis.url);
    const { token } = await store.create({ name: 'phone-host' });
    await store.close();

    for (const task of [1, 2]) {
      script = wifiOff();
      await harness.control('/reset', { method: 'POST', body: {} });
      expect((await harness.control<PhoneState>('/state')).body.settings?.wifi).toBe(true);
      const result = await runAmc(
        ['run', '-s', harness.serial, '--goal', 'Turn off Wi-Fi', '--planner', 'ai', '--transport', 'cloud-proxy', '--json'],
        {
          env: {
            ...harness.env,
            AMC_HOME: amcHome,
            AI_PLANNER_PROVIDER: 'anthropic',
            CONTROL_PLANE_URL: balancer.url,
            CONTROL_PLANE_TOKEN: token,
            ANTHROPIC_API_KEY: '',
            OPENAI_API_KEY: '',
            ...MODEL_PLANS_EVERY_STEP,
          },
          timeoutMs: 90_000,
        },
      );
      expect(result.code, `task ${task}: ${result.stderr}${result.stdout.slice(-2000)}`).toBe(0);
      const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(events.at(-1)).toMatchObject({ type: 'task.finished', status: 'completed' });
      expect(events.filter((e) => e.type === 'step.planned').map((e) => e.tool)).toEqual(['tap', 'tap', 'tap', 'finish_task']);
      expect((await harness.control<PhoneState>('/state')).body.settings?.wifi).toBe(false);
      if (task === 1) {
        expect(killed).toBe(true);
        expect(b.child.signalCode).toBe('SIGKILL');
      }
    }
    // The victim took decisions before it died; the survivor took the rest.
    expect(fakeB.requests.length).toBe(2);
    expect(fakeA.requests.length).toBe(4 + 4 - 1);
  }, 180_000);
});
