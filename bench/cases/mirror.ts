// Live mirror: frames per second painted in a real page (headless Chromium over the web host) against the raw
// screencap rate of the same virtual device measured in the same run, and the latency from the start of a capture
// to the frame reaching the page and being painted, against the raw capture time. Run per latency profile:
// `realistic` is phone-bound (screencap ~400 ms), `instant` shows the host's own ceiling (transfer + encode).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/app/create-app';
import { AdbClient } from '../../src/core/device/adb-client';
import { captureScreen, type CaptureMode } from '../../src/app/mirror/screen-capture';
import { startWebHost } from '../../src/app/web/web-host';
import type { LatencyProfileName } from '@amc/demo-phone';
import { startAdbHarness } from '../../test/support/adb-harness';
import { launchTestBrowser } from '../../test/support/browser';
import { median, percentile, type BenchCase, type BenchRow } from '../types';

const MEASURE_MS = 8_000;
/** Covers the mirror's first captures, which try both screencap modes. */
const WARMUP_MS = 3_000;

/** A page that does what the app's mirror does: latest frame wins, decode off the main thread, paint on a canvas. */
const PAGE_SCRIPT = `
const params = new URLSearchParams(location.hash.slice(1));
const stats = { frames: [], started: false };
window.__stats = stats;
const canvas = document.querySelector('canvas');
const context = canvas.getContext('2d');
const socket = new WebSocket(\`ws://\${location.host}/ws?token=\${params.get('token')}\`);
socket.binaryType = 'arraybuffer';
let pending = null;
let decoding = false;
async function paint() {
  if (decoding || !pending) return;
  decoding = true;
  const { meta, bytes, receivedAt } = pending;
  pending = null;
  const bitmap = await createImageBitmap(new Blob([bytes], { type: meta.mediaType }));
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  requestAnimationFrame(() => {
    stats.frames.push({ seq: meta.seq, capturedAt: meta.capturedAt, captureMs: meta.captureMs, receivedAt, paintedAt: Date.now() });
    decoding = false;
    paint();
  });
}
socket.addEventListener('message', (event) => {
  if (!(event.data instanceof ArrayBuffer)) return;
  const receivedAt = Date.now();
  const view = new DataView(event.data);
  const headerLength = view.getUint32(0, true);
  const meta = JSON.parse(new TextDecoder().decode(new Uint8Array(event.data, 4, headerLength)));
  pending = { meta, bytes: new Uint8Array(event.data, 4 + headerLength), receivedAt };
  paint();
});
socket.addEventListener('open', () => {
  socket.send(JSON.stringify({ id: 1, method: 'mirror.start', input: { serial: params.get('serial') } }));
  stats.started = true;
});
`;

const PAGE_HTML = '<!doctype html><meta charset="utf-8"><title>mirror bench</title><canvas></canvas><script src="/bench.js"></script>';

interface PaintedFrame {
  seq: number;
  capturedAt: number;
  captureMs: number;
  receivedAt: number;
  paintedAt: number;
}

async function rawScreencapRate(adb: AdbClient, serial: string, mode: CaptureMode): Promise<{ fps: number; captureMs: number[] }> {
  const captureMs: number[] = [];
  const start = performance.now();
  const deadline = start + MEASURE_MS / 2;
  while (performance.now() < deadline) {
    const t = performance.now();
    await captureScreen(adb, serial, mode);
    captureMs.push(performance.now() - t);
  }
  return { fps: (captureMs.length / (performance.now() - start)) * 1000, captureMs };
}

async function runProfile(profile: LatencyProfileName): Promise<BenchRow[]> {
  const name = `mirror (${profile})`;
  const harness = await startAdbHarness({ profile });
  const home = await mkdtemp(path.join(os.tmpdir(), 'amc-bench-mirror-'));
  const pageDir = await mkdtemp(path.join(os.tmpdir(), 'amc-bench-page-'));
  const env = { PATH: process.env.PATH, HOME: harness.env.HOME, ANDROID_ADB_SERVER_PORT: harness.env.ANDROID_ADB_SERVER_PORT };
  const app = await createApp({ home, env, heartbeatMs: 60_000 });
  const host = await startWebHost({ router: app.router, events: app.events, rendererDir: pageDir });
  const browser = await launchTestBrowser();
  try {
    await writeFile(path.join(pageDir, 'index.html'), PAGE_HTML);
    await writeFile(path.join(pageDir, 'bench.js'), PAGE_SCRIPT);
    const adb = await AdbClient.create({ env });
    await captureScreen(adb, harness.serial, 'raw'); // warm the connection
    // The raw rate is that of the faster screencap, as the mirror itself picks the faster one.
    const rawPixels = await rawScreencapRate(adb, harness.serial, 'raw');
    const rawPng = await rawScreencapRate(adb, harness.serial, 'png');
    const raw = rawPixels.fps >= rawPng.fps ? rawPixels : rawPng;

    const page = await browser.context.newPage();
    await page.goto(`${host.origin}/#token=${host.token}&serial=${encodeURIComponent(harness.serial)}`);
    await page.waitForFunction(() => (globalThis as unknown as { __stats: { frames: unknown[] } }).__stats.frames.length > 0, undefined, { timeout: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, MEASURE_MS));
    const to = Date.now();
    const frames = (await page.evaluate(() => (globalThis as unknown as { __stats: { frames: PaintedFrame[] } }).__stats.frames)).filter(
      (f) => f.paintedAt >= from && f.paintedAt < to,
    );
    const mirrorStatus = await app.router.call('mirror.getStatus', {}, { transport: 'web' });
    await page.close();

    const pageFps = (frames.length / (to - from)) * 1000;
    const rawCapture = median(raw.captureMs);
    const toPaint = frames.map((f) => f.paintedAt - f.capturedAt);
    const afterCapture = frames.map((f) => f.paintedAt - f.capturedAt - f.captureMs);
    const mainFps = mirrorStatus.ok ? (mirrorStatus.value as { fps: number }).fps : Number.NaN;
    return [
      { case: name, metric: 'raw `screencap` (pixels) rate', value: rawPixels.fps, unit: 'fps' },
      { case: name, metric: 'raw `screencap -p` (PNG) rate', value: rawPng.fps, unit: 'fps' },
      { case: name, metric: 'raw screencap time, faster mode (median)', value: rawCapture, unit: 'ms' },
      { case: name, metric: 'frames painted in the page', value: pageFps, unit: 'fps' },
      { case: name, metric: 'painted / raw screencap rate (faster mode)', value: pageFps / raw.fps, unit: 'x', goal: '>= 0.9x' },
      { case: name, metric: 'mirror fps reported by main', value: mainFps, unit: 'fps' },
      { case: name, metric: 'screencap time inside the mirror (median)', value: median(frames.map((f) => f.captureMs)), unit: 'ms' },
      { case: name, metric: 'capture start -> page receipt (median)', value: median(frames.map((f) => f.receivedAt - f.capturedAt)), unit: 'ms' },
      { case: name, metric: 'capture start -> paint (median)', value: median(toPaint), unit: 'ms', goal: `<= ${Math.round(rawCapture + 50)} ms (raw + 50)` },
      { case: name, metric: 'capture start -> paint (p95)', value: percentile(toPaint, 95), unit: 'ms' },
      { case: name, metric: 'capture end -> paint, per frame (median)', value: median(afterCapture), unit: 'ms', goal: '<= 50 ms' },
      { case: name, metric: 'capture end -> paint, per frame (p95)', value: percentile(afterCapture, 95), unit: 'ms' },
    ];
  } finally {
    await browser.close();
    await host.close();
    await app.close();
    await harness.stop();
    await rm(home, { recursive: true, force: true });
    await rm(pageDir, { recursive: true, force: true });
  }
}

const mirrorBench: BenchCase = {
  name: 'mirror',
  async run() {
    const profiles = (process.env.AMC_BENCH_MIRROR_PROFILES ?? 'realistic,instant').split(',') as LatencyProfileName[];
    const rows: BenchRow[] = [];
    for (const profile of profiles) rows.push(...(await runProfile(profile)));
    return rows;
  },
};

export default mirrorBench;
