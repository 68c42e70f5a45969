// Video mirror (scrcpy) against the screencap pump on the demo phone's realistic profile, in the app's own page in
// headless Chromium: frames painted per second and capture-to-paint latency as the page measures them (MirrorStats'
// data attributes), CPU of this process per second of mirroring (host and demo phone together: the phone runs in
// this process), and the agent's observe latency with the mirror on and off. The phone changes all the time (Home
// and Settings in turn), since scrcpy, like the demo phone, sends frames when the screen changes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startWebApp } from '../../src/main/app/start-web-app';
import { AdbClient } from '../../src/main/device/adb-client';
import { Observer } from '../../src/main/perception/observer';
import { startAdbHarness, type AdbHarness } from '../../test/support/adb-harness';
import { launchTestBrowser } from '../../test/support/browser';
import { requireBuiltRenderer } from '../../test/support/build';
import { median, percentile, type BenchCase, type BenchRow } from '../types';

const MEASURE_MS = 8_000;
const WARMUP_MS = 3_000;
const OBSERVATIONS = 5;

async function keepChanging(harness: AdbHarness, until: () => boolean): Promise<void> {
  while (!until()) {
    await harness.shell('am start -n com.android.settings/.Settings');
    await harness.shell('input keyevent 3');
  }
}

async function observeMs(observer: Observer, serial: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < OBSERVATIONS; i++) {
    const start = performance.now();
    await observer.observe(serial);
    times.push(performance.now() - start);
  }
  return times;
}

async function measure(source: 'video' | 'screenshots'): Promise<BenchRow[]> {
  const name = `video-mirror (realistic, ${source})`;
  const harness = await startAdbHarness({ profile: 'realistic' });
  const home = await mkdtemp(path.join(os.tmpdir(), 'amc-bench-video-'));
  const server = path.join(home, 'scrcpy-server');
  await writeFile(server, 'PK a local scrcpy-server stand-in');
  const env = {
    PATH: process.env.PATH,
    HOME: harness.env.HOME,
    ANDROID_ADB_SERVER_PORT: harness.env.ANDROID_ADB_SERVER_PORT,
    AMC_HELPER_DOWNLOAD: 'off',
    ...(source === 'video' ? { SCRCPY_SERVER_PATH: server } : { AMC_VIDEO_MIRROR: 'off' }),
  };
  const app = await startWebApp({ rendererDir: requireBuiltRenderer(), env, home, heartbeatMs: 60_000 });
  const browser = await launchTestBrowser();
  const adb = await AdbClient.create({ env });
  const observer = new Observer(adb, { screenshot: false });
  try {
    const observeOff = await observeMs(observer, harness.serial);
    const page = await browser.context.newPage();
    await page.goto(app.url);
    await page.locator(`[data-testid="device-row"][data-serial="${harness.serial}"] button`).first().click();
    await page.getByTestId('mirror-canvas').and(page.locator('[data-seq]:not([data-seq=""])')).waitFor({ timeout: 30_000 });
    let stop = false;
    const changing = keepChanging(harness, () => stop);
    await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
    const stats = page.getByTestId('mirror-stats');
    const fps: number[] = [];
    const latency: number[] = [];
    const cpuBefore = process.cpuUsage();
    const from = performance.now();
    while (performance.now() - from < MEASURE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      fps.push(Number(await stats.getAttribute('data-fps')));
      const ms = await stats.getAttribute('data-latency-ms');
      if (ms) latency.push(Number(ms));
    }
    const cpu = process.cpuUsage(cpuBefore);
    const wallMs = performance.now() - from;
    const sourceShown = await page.getByTestId('mirror-source').getAttribute('data-source').catch(() => null);
    const observeOn = await observeMs(observer, harness.serial);
    stop = true;
    await changing;
    await page.close();
    return [
      { case: name, metric: 'source the page showed', value: sourceShown === 'video' ? 1 : 0, unit: '1 = video' },
      { case: name, metric: 'frames painted per second (median of 0.5 s samples)', value: median(fps), unit: 'fps', goal: source === 'video' ? '>= 30 fps' : undefined },
      { case: name, metric: 'capture -> paint (median)', value: median(latency), unit: 'ms', goal: source === 'video' ? '<= 70 ms' : undefined },
      { case: name, metric: 'capture -> paint (p95)', value: percentile(latency, 95), unit: 'ms' },
      {
        case: name,
        metric: 'CPU of host + demo phone per second of mirroring',
        value: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
        unit: '% of one core',
        goal: source === 'video' ? '< 15% (host alone)' : undefined,
      },
      { case: name, metric: 'observe latency, mirror off (median)', value: median(observeOff), unit: 'ms' },
      { case: name, metric: 'observe latency, mirror on (median)', value: median(observeOn), unit: 'ms' },
      { case: name, metric: 'observe latency on / off', value: median(observeOn) / median(observeOff), unit: 'x', goal: '<= 1.05x' },
    ];
  } finally {
    await browser.close();
    await app.close();
    await harness.stop();
    await rm(home, { recursive: true, force: true });
  }
}

const videoMirrorBench: BenchCase = {
  name: 'video-mirror',
  async run() {
    return [...(await measure('video')), ...(await measure('screenshots'))];
  },
};

export default videoMirrorBench;
