// Virtual device, instant profile: round trips through the real adb server, driven by adbkit as the app drives a
// phone. `echo` is the baseline (adbkit -> adb server -> device transport -> phone shell); the screencap and
// uiautomator rows show what the phone adds on top, which should stay under 20 ms. A "new screen" is one whose
// pixels are not cached: another app, or a list scrolled to a position never shown. A CLI row shows the cost of
// spawning `adb` for comparison, and 20 concurrent streams show how the transport multiplexes.
import * as adbkitNamespace from '@devicefarmer/adbkit';
import type { Duplex } from 'node:stream';
import { startAdbHarness } from '../../test/support/adb-harness';
import { median, type BenchCase, type BenchRow } from '../types';

type AdbkitModule = typeof adbkitNamespace;
const adbkit: AdbkitModule =
  'Adb' in adbkitNamespace && adbkitNamespace.Adb ? adbkitNamespace : (adbkitNamespace as unknown as { default: AdbkitModule }).default;

const ROUNDS = 30;
const WARMUP = 5;
const CONCURRENT_STREAMS = 20;
const CONCURRENT_BATCHES = 10;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Times `once` after WARMUP untimed runs; `prepare` (untimed) runs before each. */
async function timeRounds(rounds: number, once: () => Promise<void>, prepare?: (round: number) => Promise<void>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) {
    await prepare?.(i);
    await once();
  }
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await prepare?.(i);
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
  return samples;
}

const virtualDeviceBench: BenchCase = {
  name: 'virtual-device',
  async run() {
    const harness = await startAdbHarness({ profile: 'instant' });
    try {
      const device = adbkit.Adb.createClient({ port: harness.adbPort }).getDevice(harness.serial);
      const shell = async (command: string): Promise<Buffer> =>
        adbkit.Adb.util.readAll((await device.shell(command)) as Duplex) as Promise<Buffer>;
      const expectOutput = (command: string, check: (output: Buffer) => boolean) => async () => {
        const output = await shell(command);
        if (!check(output)) throw new Error(`\`${command}\` gave unexpected output: ${output.subarray(0, 80).toString()}`);
      };

      const rows: BenchRow[] = [];
      const row = (metric: string, value: number, goal?: string) =>
        rows.push({ case: 'virtual-device', metric, value, unit: 'ms', ...(goal ? { goal } : {}) });
      /** One failing measurement is reported as NaN (reason on stderr) and does not hide the others. */
      const measure = async <T extends number | [number, number]>(label: string, work: () => Promise<T>): Promise<T | number> => {
        try {
          return await work();
        } catch (error) {
          process.stderr.write(`  ${label}: ${error instanceof Error ? error.message : String(error)}\n`);
          return Number.NaN;
        }
      };

      const echo = await measure('echo', async () =>
        median(await timeRounds(ROUNDS, expectOutput('echo ping', (out) => out.toString() === 'ping\n'))),
      );
      const screencap = await measure('screencap', async () =>
        median(await timeRounds(ROUNDS, expectOutput('screencap -p', (out) => out.subarray(0, 8).equals(PNG_SIGNATURE)))),
      );
      const dump = await measure('uiautomator dump', async () =>
        median(await timeRounds(ROUNDS, expectOutput('uiautomator dump /dev/tty', (out) => out.includes('<hierarchy')))),
      );
      // The phone renders once per screen state: switching apps between rounds makes every capture a fresh render.
      const switchScreen = async (round: number) => {
        await shell(round % 2 === 0 ? 'monkey -p com.android.settings -c android.intent.category.LAUNCHER 1' : 'input keyevent HOME');
      };
      // Medians per screen: the two screens cost differently, and a median over both would land on either.
      const freshScreencaps = await measure('fresh screencap', async () => {
        const samples = await timeRounds(ROUNDS, expectOutput('screencap -p', (out) => out.subarray(0, 8).equals(PNG_SIGNATURE)), switchScreen);
        const settings = median(samples.filter((_, round) => round % 2 === 0));
        const launcher = median(samples.filter((_, round) => round % 2 === 1));
        return [settings, launcher] as [number, number];
      });
      const [freshSettings, freshLauncher] = typeof freshScreencaps === 'number' ? [Number.NaN, Number.NaN] : freshScreencaps;
      // A screen never drawn before: a long contacts list moved by a few pixels each round, so every capture is new
      // pixels at new positions (rows scrolling into view bring names never rasterised before).
      const scrolledScreencap = await measure('scrolled screencap', async () => {
        const contacts = Array.from({ length: 120 }, (_, index) => ({ name: `Person ${index + 1}`, phone: `+1 555-${String(1000 + index)}` }));
        await harness.reset({ contacts, contactsPermission: 'granted', foreground: 'com.android.contacts' });
        const scroll = async () => {
          await shell('input swipe 540 1600 540 1563');
        };
        return median(await timeRounds(ROUNDS, expectOutput('screencap -p', (out) => out.subarray(0, 8).equals(PNG_SIGNATURE)), scroll));
      });
      const freshScreencap = Math.max(freshSettings, freshLauncher, scrolledScreencap);
      const freshDump = await measure('fresh uiautomator dump', async () =>
        median(await timeRounds(ROUNDS, expectOutput('uiautomator dump /dev/tty', (out) => out.includes('<hierarchy')), switchScreen)),
      );
      row('adbkit shell echo round trip (median, baseline)', echo);
      row('adbkit screencap -p round trip, same screen (median)', screencap);
      row('adbkit screencap -p round trip, new screen: Settings (median)', freshSettings);
      row('adbkit screencap -p round trip, new screen: launcher (median)', freshLauncher);
      row('adbkit screencap -p round trip, never-shown screen: contacts list scrolled (median)', scrolledScreencap);
      row('screencap -p (new screen, the slowest of the three) added over echo', freshScreencap - echo, '< 20 ms');
      row('adbkit uiautomator dump /dev/tty round trip, same screen (median)', dump);
      row('adbkit uiautomator dump /dev/tty round trip, new screen (median)', freshDump);
      row('uiautomator dump (new screen) added over echo', freshDump - echo, '< 20 ms');

      row(
        'adb CLI shell echo (median, process spawn included)',
        await measure('adb CLI echo', async () =>
          median(
            await timeRounds(10, async () => {
              const result = await harness.shell('echo ping');
              if (result.stdout !== 'ping\n') throw new Error(`adb shell echo gave ${JSON.stringify(result)}`);
            }),
          ),
        ),
      );
      row(
        'adb CLI exec-out screencap -p (median)',
        await measure('adb CLI screencap', async () =>
          median(
            await timeRounds(10, async () => {
              const result = await harness.adbRaw(['-s', harness.serial, 'exec-out', 'screencap -p']);
              if (!result.stdout.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('exec-out screencap -p gave no PNG');
            }),
          ),
        ),
      );

      const streamLatencies: number[] = [];
      const batchTimes: number[] = [];
      const batches = await measure('concurrent streams', async () => {
        for (let batch = 0; batch < CONCURRENT_BATCHES; batch++) {
          const started = performance.now();
          await Promise.all(
            Array.from({ length: CONCURRENT_STREAMS }, async (_, index) => {
              const t0 = performance.now();
              const output = await shell(`echo stream${index}`);
              if (output.toString() !== `stream${index}\n`) throw new Error(`stream ${index} got ${output.toString()}`);
              streamLatencies.push(performance.now() - t0);
            }),
          );
          batchTimes.push(performance.now() - started);
        }
        return median(batchTimes);
      });
      row(`${CONCURRENT_STREAMS} concurrent shell streams: per-stream latency (median)`, median(streamLatencies));
      row(`${CONCURRENT_STREAMS} concurrent shell streams: whole batch (median)`, batches);
      return rows;
    } finally {
      await harness.stop();
    }
  },
};

export default virtualDeviceBench;
