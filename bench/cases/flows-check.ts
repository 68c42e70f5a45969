// flows.check on a 1 MB flow over the local API (`amc serve`, the app's web host): how long the check takes, and how
// long app.ping waits meanwhile. The file is read in the flow checker's thread, so the app keeps answering: a ping is
// sent every 10 ms while the check runs and each one's round trip is timed. Three checks; the checker's thread is
// started by a small check first (its start is not part of a check).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { interrupt, startAmc } from '../../test/support/cli';
import { largeFlowText } from '../../test/support/large-flow';
import { median, percentile, type BenchCase, type BenchRow } from '../types';

const NAME = 'flows.check on a 1 MB flow';
const ROUNDS = 3;
const PING_EVERY_MS = 10;

const flowsCheckBench: BenchCase = {
  name: 'flows-check',
  async run(): Promise<BenchRow[]> {
    const home = await mkdtemp(path.join(tmpdir(), 'amc-bench-flows-check-'));
    const started = await startAmc(['serve'], /serving at (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/, { env: { AMC_HOME: home, ANDROID_ADB_SERVER_PORT: '1' } });
    const page = new URL(started.match[1]!);
    const socket = new WebSocket(`ws://${page.host}/ws?token=${/token=([\w-]+)/.exec(page.hash)![1]}`, { origin: page.origin });
    try {
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      let nextId = 1;
      const waiting = new Map<number, (result: { ok: boolean }) => void>();
      socket.on('message', (data, isBinary) => {
        if (isBinary) return;
        const message = JSON.parse(data.toString()) as { type: string; id: number; result: { ok: boolean } };
        if (message.type === 'result') waiting.get(message.id)?.(message.result);
      });
      const call = (method: string, input: unknown) =>
        new Promise<{ ok: boolean }>((resolve) => {
          const id = nextId++;
          waiting.set(id, resolve);
          socket.send(JSON.stringify({ id, method, input }));
        });

      await call('flows.check', { text: 'goal: Warm up\nsteps:\n  - press_key: back\n' });
      const text = largeFlowText();
      const checks: number[] = [];
      const pings: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const startedAt = performance.now();
        let done = false;
        const checked = call('flows.check', { text }).then((result) => {
          done = true;
          checks.push(performance.now() - startedAt);
          if (!result.ok) throw new Error('the 1 MB flow was not checked');
        });
        const pinging = (async () => {
          while (!done) {
            const sent = performance.now();
            await call('app.ping', { nonce: `bench-${round}` });
            pings.push(performance.now() - sent);
            await new Promise((resolve) => setTimeout(resolve, PING_EVERY_MS));
          }
        })();
        await Promise.all([checked, pinging]);
      }
      return [
        { case: NAME, metric: `flows.check of ${(Buffer.byteLength(text) / 1_000_000).toFixed(2)} MB, 2,000 steps (median of ${ROUNDS})`, value: median(checks), unit: 'ms' },
        { case: NAME, metric: `ping latency meanwhile, median (${pings.length} pings)`, value: median(pings), unit: 'ms' },
        { case: NAME, metric: 'ping latency meanwhile, 99th percentile', value: percentile(pings, 99), unit: 'ms', goal: '≤ 50 ms' },
        { case: NAME, metric: 'ping latency meanwhile, slowest', value: Math.max(...pings), unit: 'ms', goal: '≤ 50 ms' },
      ] satisfies BenchRow[];
    } finally {
      socket.close();
      await interrupt(started.child);
      await rm(home, { recursive: true, force: true });
    }
  },
};

export default flowsCheckBench;
