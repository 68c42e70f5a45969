// Video mirror (scrcpy) against the screencap pump on the demo phone's realistic profile, in the app's own page in
// headless Chromium. The phone runs in a process of its own (as a real phone is another machine) and shows its
// loading bar, redrawn every frame, so the figures measure the mirror and not a driver poking the screen. The bar
// fills in step with the wall clock: reading it off the canvas gives each painted picture's true age (capture to
// paint), independent of the time stamps the frames carry. The app's host runs in a process of its own too
// (video-mirror-host.ts, where the agent's observations run as well): CPU is measured per process, the host (adb
// client, scrcpy demux, WebSocket), the page (Chromium: decode and paint) and the phone apart, and this process
// (the browser driver) in none of them.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LOADING_BAR, SCREEN_HEIGHT } from '@amc/demo-phone';
import { launchTestBrowser } from '../../test/support/browser';
import { requireBuiltRenderer } from '../../test/support/build';
import { processTreeCpuSeconds, startDemoPhoneProcess, type DemoPhoneProcess } from '../demo-phone-process';
import { median, percentile, type BenchCase, type BenchRow } from '../types';
import { writeHelperStandIn } from '../../test/support/helper-stand-in';

const HOST_SCRIPT = fileURLToPath(new URL('../video-mirror-host.ts', import.meta.url));
const MEASURE_MS = 8_000;
const WARMUP_MS = 3_000;
/** Each observation waits ~1.5 s (±25%) for the phone's dump: enough of them that the jitter averages out. */
const OBSERVATIONS = 8;

interface HostProcess {
  url: string;
  pid: number;
  observe(serial: string): Promise<number[]>;
  stop(): Promise<void>;
}

/** Starts the app's host (video-mirror-host.ts) in its own process with `env`. */
async function startHost(env: NodeJS.ProcessEnv, home: string): Promise<HostProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOST_SCRIPT, requireBuiltRenderer(), home], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await lines.next();
    if (line.done) throw new Error('the app host process ended early');
    return JSON.parse(line.value) as Record<string, unknown>;
  };
  const { url } = (await next()) as { url: string };
  return {
    url,
    pid: child.pid!,
    async observe(serial) {
      child.stdin.write(`observe ${serial} ${OBSERVATIONS}\n`);
      return ((await next()) as { observeMs: number[] }).observeMs;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    },
  };
}

/**
 * In the page: on every animation frame, reads the loading bar's row off the mirror canvas; each new reading is a
 * newly painted picture, whose capture time the bar's fill tells.
 */
function startCanvasReader(page: Page): Promise<void> {
  const bar = { periodMs: LOADING_BAR.periodMs, middle: (LOADING_BAR.top + LOADING_BAR.height / 2) / SCREEN_HEIGHT };
  return page.evaluate(`(() => {
    const bar = ${JSON.stringify(bar)};
    const canvas = document.querySelector('[data-testid="mirror-canvas"]');
    const context = canvas.getContext('2d');
    const readings = (window.__barReadings = []);
    let lastFill = -1;
    const read = () => {
      const pixels = context.getImageData(0, Math.floor(bar.middle * canvas.height), canvas.width, 1).data;
      let lit = 0;
      for (let x = 0; x < canvas.width; x++) if (pixels[x * 4] > 128) lit += 1;
      const fill = lit / canvas.width;
      const now = Date.now();
      if (fill !== lastFill) {
        const phase = fill * bar.periodMs;
        readings.push({ ageMs: ((((now % bar.periodMs) - phase) % bar.periodMs) + bar.periodMs) % bar.periodMs, at: performance.now() });
        lastFill = fill;
      }
      requestAnimationFrame(read);
    };
    requestAnimationFrame(read);
  })()`);
}

/** How many screen changes the change -> paint figure is the median of. */
const CHANGES = 10;

/**
 * The phone's screen changes (Settings comes to the front, or the home screen back, as a launcher tap does; a reset
 * would also end the mirror's server) and the page's pixels follow: from just before the change is asked for to
 * the first animation frame whose canvas differs, per change.
 */
async function changeToPaint(page: Page, phone: DemoPhoneProcess): Promise<number[]> {
  const took: number[] = [];
  for (let change = 0; change < CHANGES; change++) {
    // The middle of the screen, away from the status bar's clock: what an app switch redraws.
    await page.evaluate(`(() => {
      const canvas = document.querySelector('[data-testid="mirror-canvas"]');
      const context = canvas.getContext('2d');
      const sample = () => {
        const pixels = context.getImageData(0, Math.floor(canvas.height * 0.3), canvas.width, Math.floor(canvas.height * 0.4)).data;
        let hash = 0;
        for (let i = 0; i < pixels.length; i += 16) hash = (Math.imul(hash, 31) + pixels[i] + pixels[i + 1] * 7) | 0;
        return hash;
      };
      const before = sample();
      window.__changedAt = null;
      const watch = () => {
        if (sample() !== before) window.__changedAt = Date.now();
        else requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    })()`);
    const askedAt = Date.now();
    await phone.control('/foreground', change % 2 === 0 ? { package: 'com.android.settings' } : {});
    // Polled from here: the app's CSP allows no string evaluation inside the page, which waitForFunction(string) needs.
    let changedAt: number | null = null;
    for (const deadline = Date.now() + 10_000; changedAt === null && Date.now() < deadline; ) {
      changedAt = await page.evaluate<number | null>('window.__changedAt');
      if (changedAt === null) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (changedAt === null) throw new Error(`the page's pixels did not change within 10 s of change ${change + 1}`);
    took.push(changedAt - askedAt);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return took;
}

async function measure(source: 'video' | 'screenshots', phone: DemoPhoneProcess): Promise<BenchRow[]> {
  const name = `video-mirror (realistic, ${source})`;
  const home = await mkdtemp(path.join(os.tmpdir(), 'amc-bench-video-'));
  const server = path.join(home, 'scrcpy-server');
  // The real file's size (90,164 bytes): a few-byte stand-in once hid a push that every real phone refused.
  await writeHelperStandIn('scrcpy-server', server);
  const env = {
    PATH: process.env.PATH,
    HOME: phone.env.HOME,
    ANDROID_ADB_SERVER_PORT: phone.env.ANDROID_ADB_SERVER_PORT,
    AMC_HELPER_DOWNLOAD: 'off',
    ...(source === 'video' ? { SCRCPY_SERVER_PATH: server } : { AMC_VIDEO_MIRROR: 'off' }),
  };
  const host = await startHost(env, home);
  const browser = await launchTestBrowser();
  try {
    const observeOff = source === 'video' ? await host.observe(phone.serial) : [];
    const page = await browser.context.newPage();
    await page.goto(host.url);
    await page.locator(`[data-testid="device-row"][data-serial="${phone.serial}"] button`).first().click();
    await page.getByTestId('mirror-canvas').and(page.locator('[data-seq]:not([data-seq=""])')).waitFor({ timeout: 30_000 });
    await phone.control('/loading-bar', { running: true });
    await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
    await startCanvasReader(page);
    const stats = page.getByTestId('mirror-stats');
    const fps: number[] = [];
    const latency: number[] = [];
    const cpu = async () => {
      // The page is Chromium: every process under this one but the phone and the host.
      const ours = process.cpuUsage();
      const all = await processTreeCpuSeconds(process.pid, new Set([phone.pid, host.pid]));
      return { host: await processTreeCpuSeconds(host.pid), page: all - (ours.user + ours.system) / 1e6, phone: await processTreeCpuSeconds(phone.pid) };
    };
    const before = await cpu();
    const from = performance.now();
    while (performance.now() - from < MEASURE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      fps.push(Number(await stats.getAttribute('data-fps')));
      const ms = await stats.getAttribute('data-latency-ms');
      if (ms) latency.push(Number(ms));
    }
    const after = await cpu();
    const wallSeconds = (performance.now() - from) / 1000;
    const readings = await page.evaluate<Array<{ ageMs: number; at: number }>>('window.__barReadings.splice(0)');
    const ages = readings.map((reading) => reading.ageMs);
    const readSpan = readings.length > 1 ? (readings.at(-1)!.at - readings[0]!.at) / 1000 : 0;
    const sourceShown = await page.getByTestId('mirror-source').getAttribute('data-source').catch(() => null);
    // Stopped before the agent observes: uiautomator never finds a screen that redraws every frame idle, mirror or not.
    await phone.control('/loading-bar', { running: false });
    const observeOn = source === 'video' ? await host.observe(phone.serial) : [];
    const changes = await changeToPaint(page, phone);
    await page.close();
    const share = (seconds: number) => (seconds / wallSeconds) * 100;
    const goal = (text: string) => (source === 'video' ? text : undefined);
    const rows: BenchRow[] = [
      { case: name, metric: 'source the page showed', value: sourceShown === 'video' ? 1 : 0, unit: '1 = video', goal: goal('1 (with the real-size server file)') },
      { case: name, metric: 'frames painted per second (the page, median of 0.5 s samples)', value: median(fps), unit: 'fps', goal: goal('>= 30 fps') },
      { case: name, metric: 'new pictures read off the canvas per second', value: readSpan > 0 ? (readings.length - 1) / readSpan : 0, unit: 'fps' },
      { case: name, metric: 'capture -> paint, read off the canvas (median)', value: median(ages), unit: 'ms', goal: goal('<= 70 ms') },
      { case: name, metric: 'capture -> paint, read off the canvas (p95)', value: percentile(ages, 95), unit: 'ms' },
      { case: name, metric: 'capture -> paint as the page estimates it (median)', value: median(latency), unit: 'ms' },
      { case: name, metric: `phone's screen changes -> page's pixels change (median of ${CHANGES} app switches)`, value: median(changes), unit: 'ms', goal: goal('<= 150 ms') },
      { case: name, metric: "phone's screen changes -> page's pixels change (slowest)", value: Math.max(...changes), unit: 'ms' },
      { case: name, metric: 'CPU of the host process (adb client, scrcpy demux, WebSocket)', value: share(after.host - before.host), unit: '% of one core', goal: goal('< 15%') },
      { case: name, metric: 'CPU of the page (Chromium: decode, paint, canvas reader)', value: share(after.page - before.page), unit: '% of one core' },
      { case: name, metric: 'CPU of the demo phone process (not the host)', value: share(after.phone - before.phone), unit: '% of one core' },
    ];
    if (source === 'video') {
      rows.push(
        { case: name, metric: 'observe latency, mirror off (median)', value: median(observeOff), unit: 'ms' },
        { case: name, metric: 'observe latency, mirror on (median)', value: median(observeOn), unit: 'ms' },
        { case: name, metric: 'observe latency on / off', value: median(observeOn) / median(observeOff), unit: 'x', goal: '<= 1.05x' },
      );
    }
    return rows;
  } finally {
    await browser.close();
    await host.stop();
    await rm(home, { recursive: true, force: true });
  }
}

const videoMirrorBench: BenchCase = {
  name: 'video-mirror',
  async run() {
    const rows: BenchRow[] = [];
    for (const source of ['video', 'screenshots'] as const) {
      const phone = await startDemoPhoneProcess('realistic');
      try {
        rows.push(...(await measure(source, phone)));
      } finally {
        await phone.stop();
      }
    }
    return rows;
  },
};

export default videoMirrorBench;
