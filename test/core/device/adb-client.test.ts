import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdbClient, parseHostPort } from '../../../src/core/device/adb-client';
import { resolveAdbServer } from '../../../src/core/device/adb-server';
import { AdbError } from '../../../src/core/device/errors';
import { getprop, parseProperties } from '../../../src/core/device/android/getprop';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';

let harness: AdbHarness;
let adb: AdbClient;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
});
afterAll(async () => {
  await harness?.stop();
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('adb server address', () => {
  it('Scenario: The server port comes from ANDROID_ADB_SERVER_PORT', () => {
    expect(resolveAdbServer({ env: { ANDROID_ADB_SERVER_PORT: '5999' } })).toMatchObject({ host: '127.0.0.1', port: 5999, local: true });
    expect(resolveAdbServer({ env: {} }).port).toBe(5037);
    expect(resolveAdbServer({ port: 6001, env: { ANDROID_ADB_SERVER_PORT: '5999' } }).port).toBe(6001);
    expect(() => resolveAdbServer({ env: { ANDROID_ADB_SERVER_PORT: 'abc' } })).toThrow(/ANDROID_ADB_SERVER_PORT must be a TCP port/);
  });

  it('Scenario: A missing adb binary gives an actionable error', async () => {
    const error = await AdbClient.create({ port: await freePort(), adbPath: '/nonexistent/adb' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdbError);
    expect(error).toMatchObject({ kind: 'adb-missing' });
    expect((error as Error).message).toMatch(/Install Android platform-tools/);
  });

  it('Scenario: An unreachable remote server gives an actionable error', async () => {
    const port = await freePort();
    const error = await AdbClient.create({ host: '127.0.0.2', port }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'server-unreachable' });
    expect((error as Error).message).toContain(`No adb server answers at 127.0.0.2:${port}`);
    expect((error as Error).message).toMatch(/nodaemon server/);
  });

  it('Scenario: A port that is not an adb server gives an actionable error', async () => {
    // A web server (here the phone's control API) and a phone's own adbd port are common mix-ups.
    for (const port of [harness.device.controlPort, harness.device.adbPort]) {
      const error = await AdbClient.create({ port, adbPath: '/nonexistent/adb' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'server-unreachable' });
      expect((error as Error).message).toContain(`Something listens at 127.0.0.1:${port}, but it is not an adb server`);
      expect((error as Error).message).toMatch(/amc connect HOST:PORT/);
    }
  });

  it('Scenario: A local server is started when none runs', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'amc-adb-start-'));
    const port = await freePort();
    const env = { ...process.env, HOME: home, ANDROID_ADB_LOG_PATH: path.join(home, 'adb.log'), ADB_EMU: '0' };
    try {
      const client = await AdbClient.create({ port, env });
      expect(client.address).toBe(`127.0.0.1:${port}`);
      expect(await client.listDevices()).toEqual([]);
    } finally {
      await new Promise((resolve) => {
        import('node:child_process').then(({ execFile }) => execFile('adb', ['-P', String(port), 'kill-server'], { env }, resolve));
      });
      await rm(home, { recursive: true, force: true });
    }
  });

  it('parses HOST:PORT targets and rejects anything else', () => {
    expect(parseHostPort('192.168.1.20:5555')).toEqual({ host: '192.168.1.20', port: 5555 });
    expect(parseHostPort('phone.local')).toEqual({ host: 'phone.local', port: 5555 });
    expect(parseHostPort('[fe80::1]:40000')).toEqual({ host: 'fe80::1', port: 40000 });
    expect(() => parseHostPort('a:b:c')).toThrow(/not an address/);
  });
});

describe('adb calls against the virtual device', () => {
  it('runs shell commands and reads properties on the named device', async () => {
    expect(await adb.shell(harness.serial, 'echo hello')).toBe('hello\n');
    expect(await adb.exec(harness.serial, 'echo hi')).toEqual({ output: 'hi\n', succeeded: true });
    expect((await adb.exec(harness.serial, 'false')).succeeded).toBe(false);
    const properties = parseProperties(await adb.shell(harness.serial, getprop.all()));
    expect(properties.get('ro.build.version.release')).toBeTruthy();
  });

  it('names the serial it could not find', async () => {
    const error = await adb.shell('127.0.0.1:1', 'echo hi').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'device-not-found', retryable: true });
    expect((error as Error).message).toMatch(/No device "127.0.0.1:1" is connected/);
  });

  it('Scenario: Aborting a hanging command closes its stream', async () => {
    await harness.control('/faults', { body: { kind: 'hang' } });
    const controller = new AbortController();
    const pending = adb.shell(harness.serial, 'echo never', { signal: controller.signal });
    await harness.waitForHang();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => harness.device.adb.stats().streams, { timeout: 5000 }).toBe(0);
    expect(await adb.shell(harness.serial, 'echo after')).toBe('after\n');
  });

  it('times out a hanging command with a clear error', async () => {
    await harness.control('/faults', { body: { kind: 'hang' } });
    const error = await adb.shell(harness.serial, 'echo never', { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout' });
    expect((error as Error).message).toMatch(/did not finish within 0.3 s/);
  });

  it('receives exec output into a reused buffer, and into a new one when it does not fit', async () => {
    let expected = await adb.shellBytes(harness.serial, 'screencap');
    expect(expected.length).toBeGreaterThan(1_000_000);
    // The status bar's clock may turn a minute between two captures: then the capture just after counts too.
    const sameScreen = async (output: Buffer) =>
      output.equals(expected) || output.equals((expected = await adb.shellBytes(harness.serial, 'screencap')));
    const into = Buffer.alloc(expected.length + 100);
    const output = await adb.execInto(harness.serial, 'screencap', into);
    expect(output.buffer).toBe(into.buffer);
    expect(await sameScreen(output)).toBe(true);
    const again = await adb.execInto(harness.serial, 'screencap', into);
    expect(again.buffer).toBe(into.buffer);
    const small = Buffer.alloc(1000);
    const grown = await adb.execInto(harness.serial, 'screencap', small);
    expect(grown.buffer).not.toBe(small.buffer);
    expect(await sameScreen(grown)).toBe(true);
    expect((await adb.execInto(harness.serial, 'echo hi', Buffer.alloc(0))).toString()).toBe('hi\n');
  });

  it('receives shell output into a buffer like shellBytes does, through the same shell service', async () => {
    let expected = await adb.shellBytes(harness.serial, 'screencap -p');
    const into = Buffer.alloc(expected.length + 4096);
    const output = await adb.shellInto(harness.serial, 'screencap -p', into);
    expect(output.buffer).toBe(into.buffer);
    // As above, the capture just after counts too when the clock turned a minute in between.
    expect(output.equals(expected) || output.equals((expected = await adb.shellBytes(harness.serial, 'screencap -p')))).toBe(true);
    expect((await adb.shellInto(harness.serial, 'echo one; echo two >&2', Buffer.alloc(0))).toString()).toBe(await adb.shell(harness.serial, 'echo one; echo two >&2'));
    const missing = await adb.shellInto('127.0.0.1:1', 'echo hi', Buffer.alloc(0)).catch((e: unknown) => e);
    expect(missing).toMatchObject({ kind: 'device-not-found' });
    await harness.control('/faults', { body: { kind: 'hang' } });
    await expect(adb.shellInto(harness.serial, 'echo never', Buffer.alloc(0), { timeoutMs: 300 })).rejects.toMatchObject({ kind: 'timeout' });
    await expect.poll(() => harness.device.adb.stats().streams, { timeout: 5000 }).toBe(0);
  });

  it('words exec failures, hangs and aborts like every other call', async () => {
    const missing = await adb.execInto('127.0.0.1:1', 'screencap', Buffer.alloc(16)).catch((e: unknown) => e);
    expect(missing).toMatchObject({ kind: 'device-not-found' });
    expect((missing as Error).message).toMatch(/No device "127.0.0.1:1" is connected/);
    await harness.control('/faults', { body: { kind: 'hang' } });
    await expect(adb.execInto(harness.serial, 'screencap', Buffer.alloc(16), { timeoutMs: 300 })).rejects.toMatchObject({ kind: 'timeout' });
    await harness.control('/faults', { body: { kind: 'hang' } });
    const controller = new AbortController();
    const pending = adb.execInto(harness.serial, 'screencap', Buffer.alloc(16), { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => harness.device.adb.stats().streams, { timeout: 5000 }).toBe(0);
  });

  it('refuses an already aborted signal without contacting adb', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(adb.shell(harness.serial, 'echo hi', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('Scenario: Pairing with an adb that lacks it explains the fix', async () => {
    const error = await adb.pair('127.0.0.1:37000', '123456').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unsupported' });
    expect((error as Error).message).toMatch(/platform-tools 30 or newer; this adb is 29\.0\.6/);
    await expect(adb.pair('127.0.0.1:37000', '12')).rejects.toThrow(/6-digit/);
  });
});

describe('pushes of any size', () => {
  const KB = 1024;

  /** `adb pull` (the real adb, not the app's code) of `devicePath` into the harness's folder, as bytes. */
  async function pulled(devicePath: string): Promise<Buffer> {
    const local = path.join(harness.tmpDir, `pulled-${path.basename(devicePath)}`);
    const result = await harness.adb(['-s', harness.serial, 'pull', devicePath, local], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    return readFile(local);
  }

  it('Scenario: Pushes of 1 byte, 64 KB, 64 KB + 1 and 5 MB arrive byte for byte', async () => {
    for (const size of [1, 64 * KB, 64 * KB + 1, 5 * KB * KB]) {
      const bytes = randomBytes(size);
      const devicePath = `/data/local/tmp/push-${size}`;
      await adb.push(harness.serial, bytes, devicePath, { timeoutMs: 60_000 });
      expect((await pulled(devicePath)).equals(bytes), `${size} bytes`).toBe(true);
    }
  });

  it('Scenario: A stream that hands out a whole file at once is still pushed in legal messages', async () => {
    const bytes = randomBytes(5 * KB * KB);
    // Readable.from([buffer]) is an object stream: one read() returns all 5 MB, the shape that was refused before.
    await adb.push(harness.serial, Readable.from([bytes]), '/data/local/tmp/push-object-stream', { timeoutMs: 60_000 });
    expect((await pulled('/data/local/tmp/push-object-stream')).equals(bytes)).toBe(true);

    const file = path.join(harness.tmpDir, 'local-file');
    await writeFile(file, bytes);
    await adb.push(harness.serial, createReadStream(file, { highWaterMark: 1024 * KB }), '/data/local/tmp/push-file', { timeoutMs: 60_000 });
    expect((await pulled('/data/local/tmp/push-file')).equals(bytes)).toBe(true);
  });
});
