import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SceneSchema, type Scene } from '../../src/shared/scene';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, runAmc } from '../support/cli';
import { writeHelperStandIn } from '../support/helper-stand-in';

let harness: AdbHarness;
/** amc runs with the harness's environment: its HOME and ANDROID_ADB_SERVER_PORT point at the isolated server. */
const amc = (...args: string[]) => runAmc(args, { env: harness.env });

beforeAll(async () => {
  harness = await startAdbHarness();
});
afterAll(async () => {
  await harness?.stop();
});

describe('amc device commands', () => {
  it('Scenario: amc devices lists the phones with their details', async () => {
    const result = await amc('devices', '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [device] = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(device).toMatchObject({ serial: harness.serial, state: 'device', connection: 'tcp', screen: { width: 1080, height: 2400, density: 420 } });
    expect(device!.model).toBeTruthy();
    expect(device!.androidVersion).toBe('14');
    const text = await amc('devices');
    expect(text.stdout).toContain(`${harness.serial}  device`);
  });

  it('Scenario: amc devices --json says which helpers each phone can use', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'amc-helpers-cli-'));
    try {
      const server = path.join(dir, 'scrcpy-server');
      await writeHelperStandIn('scrcpy-server', server);
      const result = await runAmc(['devices', '--json'], { env: { ...harness.env, SCRCPY_SERVER_PATH: server, AMC_HELPER_DOWNLOAD: 'off', AMC_PHONE_HELPERS_DIR: '' } });
      expect(result.code).toBe(0);
      const [device] = JSON.parse(result.stdout) as Array<{ helpers: Record<string, { usable: boolean; detail: string }> }>;
      expect(device!.helpers).toEqual({
        'scrcpy-server': { usable: true, detail: `scrcpy-server 3.3.3 from the Settings path (${server})` },
        yadb: { usable: false, detail: 'yadb 1.1.1 is not installed and downloads are off in Settings' },
        'adb-keyboard': { usable: true, detail: 'ADBKeyBoard is installed and enabled' },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('Scenario: Output into a closed pipe ends the command quietly', async () => {
    // As in `amc observe | head -1`: the reader is gone before amc writes its first line.
    const child = spawn(process.execPath, [amcBin, 'observe', '-s', harness.serial], { env: harness.env });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('Scenario: amc observe prints the Scene the planner receives', async () => {
    const file = path.join(harness.tmpDir, 'screen.jpg');
    const result = await amc('observe', '-s', harness.serial, '--screenshot', file);
    expect(result.code).toBe(0);
    const [sceneText] = result.stdout.split('\ntimings:');
    const scene: Scene = SceneSchema.parse(JSON.parse(sceneText!));
    expect(scene.elements.some((e) => e.text === 'Settings' && e.clickable)).toBe(true);
    expect(result.stdout).toMatch(/timings: total [\d.]+ ms \(ui dump [\d.]+ ms, screenshot [\d.]+ ms\)/);
    expect(result.stdout).toMatch(/screenshot: 655x1456 jpeg/);
    expect((await sharp(await readFile(file)).metadata()).format).toBe('jpeg');

    const json = JSON.parse((await amc('observe', '-s', harness.serial, '--json')).stdout) as { scene: Scene; screenshot: { bytes: number } };
    expect(json.scene.screen.package).toBe('com.android.launcher3');
    expect(json.screenshot.bytes).toBeGreaterThan(1000);
  });

  it('Scenario: amc observe reads an animated screen on a fresh phone through yadb, set with YADB_PATH', async () => {
    // The phone was never given yadb (a reset empties /data/local/tmp) and its loading bar keeps uiautomator busy.
    await harness.control('/reset', { method: 'POST' });
    await harness.control('/loading-bar', { body: { running: true } });
    try {
      const home = await mkdtemp(path.join(tmpdir(), 'amc-observe-yadb-'));
      const yadb = await writeHelperStandIn('yadb', path.join(home, 'yadb-v1.1.1'));
      const env = { ...harness.env, AMC_HOME: home, YADB_PATH: yadb, AMC_HELPER_DOWNLOAD: 'off' };
      const result = await runAmc(['observe', '-s', harness.serial, '--json'], { env });
      expect(result.stderr).toBe('');
      const { scene } = JSON.parse(result.stdout) as { scene: Scene };
      expect(scene).toMatchObject({ dump: 'yadb', screen: { package: 'com.android.launcher3' } });
      expect(scene.elements.some((element) => element.text === 'Settings' && element.clickable)).toBe(true);
      await rm(home, { recursive: true, force: true });
    } finally {
      await harness.control('/reset', { method: 'POST' });
    }
  });

  it('Scenario: amc act runs one tool through the Executor', async () => {
    const observed = JSON.parse((await amc('observe', '--json')).stdout) as { scene: Scene };
    const clock = observed.scene.elements.find((e) => e.text === 'Clock')!;
    const tapped = await amc('act', '-s', harness.serial, 'tap', '--element_id', clock.id);
    expect(tapped.stderr).toBe('');
    expect(tapped.stdout).toMatch(/^ok: tap at \(\d+, \d+\) on TextView "Clock"/);
    expect(tapped.code).toBe(0);
    expect((await harness.control<{ foreground: string }>('/state')).body.foreground).toBe('com.android.deskclock');

    // Refused before anything reached the phone: a usage error.
    const unknown = await amc('act', '-s', harness.serial, 'tap', '--element_id', 'e999');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/failed: There is no element e999/);
  });

  it('reports usage errors with exit code 2', async () => {
    const noTool = await amc('act', '-s', harness.serial);
    expect(noTool.code).toBe(2);
    expect(noTool.stderr).toMatch(/no tool given; tools: tap, long_press/);
    const badNumber = await amc('act', '-s', harness.serial, 'tap', '--x', 'left', '--y', '3');
    expect(badNumber.code).toBe(2);
    expect(badNumber.stderr).toMatch(/--x must be a number/);
    const noAddress = await amc('connect');
    expect(noAddress.code).toBe(2);
    for (const command of [['connect', 'phone:port'], ['disconnect', 'phone:99999'], ['pair', 'phone:x', '123456']]) {
      const badAddress = await amc(...command);
      expect(badAddress.code, command.join(' ')).toBe(2);
      expect(badAddress.stderr).toMatch(/is not an address; use HOST:PORT/);
    }
    const badCode = await amc('pair', '127.0.0.1:37000', '12ab');
    expect(badCode.code).toBe(2);
    expect(badCode.stderr).toContain('the pairing code is the 6-digit number');
  });
});
