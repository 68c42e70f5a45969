// A first start where the internet cannot be reached: the demo phone's mirror is video straight away, from the
// scrcpy-server shipped with the app (the genuine 3.3.3 file, checked by its SHA-256), and no download is tried —
// the release address points at a loopback server that counts every request. A change of a mirror setting then
// restarts the mirror at once, without selecting the phone again.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedHelpersDir } from '../../../src/app/paths';
import { SCRCPY_SERVER } from '../../../src/core/device/helpers/catalog';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { isolatedEnv, removeHome, startTestApp, type TestApp } from '../app-fixture';

let harness: AdbHarness;
let app: TestApp;
let releases: Server;
const downloadsTried: string[] = [];
let watching: (() => void) | undefined;

beforeAll(async () => {
  harness = await startAdbHarness();
  // Where the official releases would come from: nothing is served, every request is counted.
  releases = createServer((request, response) => {
    downloadsTried.push(request.url ?? '');
    response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => releases.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(releases.address() as AddressInfo).port}`;
  app = await startTestApp({
    // Downloads are allowed, as on a fresh install; the shipped folder is the app's own.
    env: isolatedEnv(harness.env, { AMC_HELPER_DOWNLOAD: 'true', AMC_PHONE_HELPERS_DIR: shippedHelpersDir({})! }),
    helperDownloadUrls: { 'scrcpy-server': `${base}/scrcpy-server`, yadb: `${base}/yadb` },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
  releases?.close();
});

describe('the shipped phone helpers', () => {
  it('Scenario: The first mirror is video with no network and no download', async () => {
    app.events.length = 0;
    // A window watching: the mirror streams only while someone receives its frames.
    watching = app.app.events.subscribeFrames(() => undefined);
    await app.call('mirror.start', { serial: harness.serial, maxSize: 800 });
    const status = await app.waitForEvent('mirror.status', (s) => s.serial === harness.serial && s.source === 'video', 30_000);
    expect(status.fallbackReason ?? null).toBeNull();
    // The genuine server was pushed (its real size), and no release address was asked for anything.
    expect((await harness.shell(`ls -l ${SCRCPY_SERVER.devicePath}`)).stdout).toContain('90164');
    expect(downloadsTried).toEqual([]);
  });

  it('Scenario: A changed mirror setting restarts the mirror at once', async () => {
    app.events.length = 0;
    await app.call('settings.update', { patch: { helpers: { videoMirror: false } } });
    const off = await app.waitForEvent('mirror.status', (s) => s.serial === harness.serial && s.source === 'screenshots' && Boolean(s.fallbackReason));
    expect(off.fallbackReason).toMatch(/video mirror is off/i);
    app.events.length = 0;
    await app.call('settings.update', { patch: { helpers: { videoMirror: true } } });
    await app.waitForEvent('mirror.status', (s) => s.serial === harness.serial && s.source === 'video', 30_000);
    expect(downloadsTried).toEqual([]);
    await app.call('mirror.stop', {});
    watching?.();
  });
});
