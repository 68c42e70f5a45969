// The app's Fleet view in the browser at 1280x800: a real redis-server with a password, a real `amc worker` process
// offering the app's demo phone, the scripted model through the real Anthropic SDK. The view must read what
// `amc fleet` reads (workers, phones, jobs, interruptions) and never show the Redis password.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FleetClient } from '../../src/fleet/client';
import { connectRedis } from '../../src/fleet/redis';
import { wifiOnModel, slowedModel } from '../fakes/index';
import { amcBin, anthropicDirectEnv, childEnv } from '../support/cli';
import { startTestRedis, type TestRedis } from '../support/redis-server';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';
import { openApp, saveScreenshot } from './ui-support';

const PASSWORD = 'hunter2-fleet-secret';
let replyDelayMs = 0;

let redis: TestRedis;
const redisUrl = () => `redis://:${PASSWORD}@127.0.0.1:${redis.port}`;
beforeAll(async () => {
  redis = await startTestRedis();
  const admin = connectRedis(new URL(redis.url));
  await admin.config('SET', 'requirepass', PASSWORD);
  admin.disconnect();
});
afterAll(async () => {
  await redis?.dispose();
});

const model = useAnthropicFake(slowedModel(wifiOnModel, () => replyDelayMs));
// The Redis address (with its password) reaches the app as the AMC_FLEET_REDIS secret, from the environment.
const ui = useUiFixture({ env: () => ({ AMC_FLEET_REDIS: redisUrl() }) });

let worker: ChildProcess | null = null;
let workerHome: string;
async function startWorker(): Promise<void> {
  workerHome ??= await mkdtemp(path.join(os.tmpdir(), 'amc-fleet-ui-worker-'));
  const env = childEnv(anthropicDirectEnv(ui.host.harness, workerHome, model.fake.url, { AMC_FLEET_REDIS: redisUrl() }));
  const child = spawn(process.execPath, [amcBin, 'worker', '--name', 'bench-host', '--group', 'lab', '--lock-seconds', '3'], { env });
  worker = child;
  let output = '';
  child.stdout.on('data', (data) => (output += data));
  child.stderr.on('data', (data) => (output += data));
  await expect.poll(() => output, { timeout: 30_000 }).toMatch(/offers/);
}
afterAll(async () => {
  worker?.kill('SIGKILL');
  if (workerHome) await rm(workerHome, { recursive: true, force: true });
});

/** Nothing on the page scrolls sideways, and the fleet view lies inside the window. */
async function fitsTheWindow(page: Page) {
  const sideways = await page.evaluate(() =>
    [document.documentElement, ...document.querySelectorAll('*')].some((element) => {
      const style = getComputedStyle(element);
      const scrollable = element === document.documentElement || ['auto', 'scroll'].includes(style.overflowX);
      return scrollable && element.scrollWidth > element.clientWidth + 1;
    }),
  );
  expect(sideways).toBe(false);
  const box = (await page.getByTestId('fleet-panel').boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
}

describe('the Fleet view in the app', { timeout: 180_000 }, () => {
  it('Scenario: The Fleet view shows the workers, their phones, jobs and an interruption, never the Redis password', async () => {
    await ui.host.harness.reset({ settings: { wifi: false } });
    await startWorker();
    const serial = ui.host.harness.serial;
    const { page, errors } = await openApp(ui.browser, ui.host);
    await page.getByRole('tab', { name: 'Fleet' }).click();
    const panel = page.getByTestId('fleet-panel');
    await panel.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('fleet-address').textContent()).toBe(`redis://127.0.0.1:${redis.port}`);
    const phoneState = page.locator(`[data-testid="fleet-phone"][data-serial="${serial}"] [data-testid="fleet-phone-state"]`);
    await expect.poll(() => phoneState.textContent(), { timeout: 30_000 }).toBe('ready');

    // A job sent to the phone: the view shows it finished, as amc fleet does.
    const client = await FleetClient.open(new URL(redisUrl()));
    try {
      const [job] = await client.submit({ goal: 'Turn on Wi-Fi' }, { device: serial });
      await client.wait([job!], () => undefined);
      expect((await ui.host.harness.state()).settings.wifi).toBe(true);
      const row = page.locator(`[data-testid="fleet-job"][data-job-id="${job!.id}"]`);
      await expect.poll(() => row.getByTestId('fleet-job-state').textContent(), { timeout: 30_000 }).toBe('finished');
      expect(await row.textContent()).toMatch(/done \(\d+ steps, [\d,]+ tokens, .+, on bench-host\)/);

      // The worker is killed mid-task: the view shows it gone, its phone offline and the job interrupted.
      await ui.host.harness.reset({ settings: { wifi: false } });
      replyDelayMs = 1500;
      const asked = model.fake.requests.length;
      const [slow] = await client.submit({ goal: 'Turn on Wi-Fi' }, { any: true });
      await expect.poll(() => model.fake.requests.length, { timeout: 30_000 }).toBeGreaterThan(asked);
      worker!.kill('SIGKILL');
      const slowRow = page.locator(`[data-testid="fleet-job"][data-job-id="${slow!.id}"]`);
      await expect.poll(() => slowRow.getByTestId('fleet-job-state').textContent(), { timeout: 30_000 }).toBe('interrupted');
      expect(await page.locator('[data-testid="fleet-worker"][data-name="bench-host"]').textContent()).toMatch(/gone \(no report for a while\)/);
      expect(await phoneState.textContent()).toBe('offline');
      expect(await page.getByTestId('fleet-counts').textContent()).toMatch(/^0 queued, 0 running, 1 done, 0 not verified, 0 failed, 0 stopped, 0 looked only, 1 interrupted$/);
      await fitsTheWindow(page);
      await saveScreenshot(page, 'fleet-view');
      expect(await page.content()).not.toContain(PASSWORD);
    } finally {
      replyDelayMs = 0;
      await client.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
