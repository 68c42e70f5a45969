import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { PhoneDriver } from '../tasks/phone-driver';

describe('virtual device through the real adb CLI', () => {
  let harness: AdbHarness;

  beforeAll(async () => {
    harness = await startAdbHarness();
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('Scenario: adb connect lists the virtual phone with its model', async () => {
    const devices = await harness.adb(['devices', '-l']);
    const line = devices.stdout.split('\n').find((l) => l.startsWith(harness.serial));
    expect(line).toBeDefined();
    expect(line).toMatch(/\sdevice\s/);
    expect(line).toContain('model:AMC_Virtual_Phone');
    expect(line).toContain('device:amc_virtual');
  });

  it('Scenario: Shell exit codes and stderr pass through the shell protocol', async () => {
    const ok = await harness.shell('echo hello');
    expect(ok).toMatchObject({ code: 0, stdout: 'hello\n', stderr: '' });

    const exited = await harness.shell('exit 3');
    expect(exited.code).toBe(3);

    const unknown = await harness.shell('nosuchcommand --flag');
    expect(unknown.code).toBe(127);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('nosuchcommand: inaccessible or not found');
  });

  it('legacy shell (adb shell -x) merges stderr into stdout and ends with the stream', async () => {
    const result = await harness.adb(['-s', harness.serial, 'shell', '-x', 'echo out; nosuchcommand']);
    expect(result.stdout).toContain('out\n');
    expect(result.stdout).toContain('nosuchcommand: inaccessible or not found');
  });

  it('exec-out passes bytes through untouched', async () => {
    const result = await harness.adbRaw(['-s', harness.serial, 'exec-out', 'echo raw']);
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toBe('raw\n');
  });

  it('Scenario: Push and pull round-trip a 1 MiB file byte for byte', async () => {
    const original = randomBytes(1024 * 1024);
    const local = path.join(harness.tmpDir, 'random.bin');
    const back = path.join(harness.tmpDir, 'random-back.bin');
    await writeFile(local, original);

    const pushed = await harness.adb(['-s', harness.serial, 'push', local, '/sdcard/Download/random.bin']);
    expect(pushed.code, pushed.stderr).toBe(0);
    const pulled = await harness.adb(['-s', harness.serial, 'pull', '/sdcard/Download/random.bin', back]);
    expect(pulled.code, pulled.stderr).toBe(0);

    expect(Buffer.compare(await readFile(back), original)).toBe(0);
    expect(harness.device.phone.fs.stat('/sdcard/Download/random.bin')?.size).toBe(original.length);
  });

  it('Scenario: Pulling a missing file reports the real error text', async () => {
    const result = await harness.adb(['-s', harness.serial, 'pull', '/sdcard/missing.txt', path.join(harness.tmpDir, 'x')]);
    expect(result.code).toBe(1);
    // adb 29 prints sync errors on stdout.
    expect(result.stdout + result.stderr).toContain("'/sdcard/missing.txt': No such file or directory");
  });

  it('Scenario: Pushing outside the writable areas fails with the real error text', async () => {
    const local = path.join(harness.tmpDir, 'small.txt');
    await writeFile(local, 'hello');
    const result = await harness.adb(['-s', harness.serial, 'push', local, '/system/small.txt']);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain("remote couldn't create file: Permission denied");
  });

  it('Scenario: An unsupported service is refused without harming the connection', async () => {
    const reboot = await harness.adb(['-s', harness.serial, 'reboot'], { timeoutMs: 5_000 });
    expect(reboot.code).not.toBe(0);
    expect(reboot.stderr).toContain('closed');
    const after = await harness.shell('echo still here');
    expect(after.stdout).toBe('still here\n');
  });

  it('interactive shell without a pty runs the lines it is given', async () => {
    const result = await harness.adb(['-s', harness.serial, 'shell'], { input: 'echo one\necho two\nexit 4\n' });
    expect(result.stdout).toBe('one\ntwo\n');
    expect(result.code).toBe(4);
  });

  it('interactive shell with a pty prompts, echoes the keys and exits with the given code', async () => {
    const result = await harness.adb(['-s', harness.serial, 'shell', '-tt'], { input: 'echo hi\rexit 2\r' });
    expect(result.stdout).toBe('amc_virtual:/ $ echo hi\r\nhi\r\namc_virtual:/ $ exit 2\r\n');
    expect(result.code).toBe(2);
  });

  it('Scenario: adb shell forwards a local file as stdin to cat > FILE', async () => {
    const local = path.join(harness.tmpDir, 'upload.bin');
    const bytes = randomBytes(200_000);
    await writeFile(local, bytes);
    const result = await harness.adbRaw(['-s', harness.serial, 'shell', 'cat > /sdcard/upload.bin'], { input: await readFile(local) });
    expect(result.code).toBe(0);
    expect(harness.device.phone.fs.read('/sdcard/upload.bin').equals(bytes)).toBe(true);
  });

  it('Scenario: adb logcat dumps, clears and streams until the client goes away', async () => {
    await harness.adb(['-s', harness.serial, 'logcat', '-c']);
    expect((await harness.adb(['-s', harness.serial, 'logcat', '-d'])).stdout).toBe('');
    await harness.shell('am start -n com.android.deskclock/.DeskClock');
    const dump = await harness.adb(['-s', harness.serial, 'logcat', '-d']);
    expect(dump.code).toBe(0);
    // threadtime: date, time with milliseconds, pid, tid, priority, tag, message.
    expect(dump.stdout).toMatch(/^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +\d+ +\d+ I ActivityTaskManager: START u0 \{.*cmp=com\.android\.deskclock\/\.DeskClock.*\}/m);

    const child = spawn('adb', ['-P', String(harness.adbPort), '-s', harness.serial, 'logcat'], { env: harness.env });
    let streamed = '';
    child.stdout.on('data', (chunk: Buffer) => (streamed += chunk.toString('utf8')));
    await expect.poll(() => streamed, { timeout: 10_000 }).toContain('ActivityTaskManager');
    await harness.shell('am start -n com.android.settings/.Settings');
    await expect.poll(() => streamed, { timeout: 10_000 }).toContain('cmp=com.android.settings/.Settings');
    child.kill();
    await expect.poll(() => harness.device.adb.stats().streams, { timeout: 10_000 }).toBe(0);
  });

  it("Scenario: adb logcat shows the apps' actions in threadtime format from their processes", async () => {
    await harness.adb(['-s', harness.serial, 'logcat', '-c']);
    const driver = new PhoneDriver(harness.device.phone);
    await driver.sh('input keyevent KEYCODE_HOME');
    await driver.tap({ desc: 'Messages', pkg: 'com.android.launcher3' });
    await driver.tap({ desc: 'Start chat' });
    await driver.tap({ id: 'recipient_text_view' });
    await driver.type('555-0142');
    await driver.tap({ id: 'compose_message_text' });
    await driver.type('Hello there');
    await driver.tap({ desc: 'Send SMS' });
    await driver.sh('input keyevent KEYCODE_HOME');
    await driver.tap({ desc: 'Contacts', pkg: 'com.android.launcher3' });
    await driver.tap({ text: 'Allow' });
    await driver.tap({ desc: 'Create contact' });
    await driver.tap({ id: 'editor_name' });
    await driver.type('Dave Brown');
    await driver.tap({ text: 'Save' });
    await driver.sh('input keyevent KEYCODE_HOME');
    await driver.tap({ desc: 'Settings', pkg: 'com.android.launcher3' });
    await driver.tap({ text: 'Network & internet' });
    await driver.tap({ text: 'Wi-Fi' });
    expect(harness.device.phone.state().settings.wifi).toBe(false);

    const dump = (await harness.adb(['-s', harness.serial, 'logcat', '-d'])).stdout;
    const pidOf = async (pkg: string) => Number((await harness.shell(`pidof ${pkg}`)).stdout.trim());
    const line = (pid: number, tag: string, message: string) =>
      new RegExp(`^\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} +${pid} +\\d+ I ${tag}: ${message}$`, 'm');
    const messaging = await pidOf('com.android.messaging');
    expect(messaging).toBeGreaterThan(0);
    expect(dump).toMatch(line(messaging, 'MessagingAppDataModel', 'InsertNewMessageAction: inserted outgoing message, 11 chars'));
    expect(dump).toMatch(line(messaging, 'MessagingApp', 'SmsSender: sending SMS to 1 recipient, 1 part\\(s\\)'));
    expect(dump).not.toContain('Hello there');
    expect(dump).toMatch(line(await pidOf('com.android.contacts'), 'ContactSaveService', 'Saving contact: 1 raw contact, 0 phone number\\(s\\)'));
    const systemServer = await pidOf('system_server');
    expect(dump).toMatch(line(systemServer, 'WifiService', 'setWifiEnabled package=com.android.settings uid=1000 enable=false'));
    // Each action is logged once, after the activity that performed it started.
    expect(dump.split('setWifiEnabled')).toHaveLength(2);
    expect(dump.indexOf('cmp=com.android.settings/')).toBeLessThan(dump.indexOf('setWifiEnabled'));
  });

  it('Scenario: adb reverse connects the phone to a port on the host until removed', async () => {
    const server = createServer((socket) => socket.once('data', (data) => socket.end(`pong ${data.toString('utf8')}`)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const hostPort = (server.address() as { port: number }).port;
    try {
      expect((await harness.adb(['-s', harness.serial, 'reverse', 'tcp:8123', `tcp:${hostPort}`])).code).toBe(0);
      const listed = await harness.adb(['-s', harness.serial, 'reverse', '--list']);
      expect(listed.stdout.trim().split(/\s+/).slice(1)).toEqual(['tcp:8123', `tcp:${hostPort}`]);
      expect((await harness.shell('echo ping | nc localhost 8123')).stdout).toBe('pong ping\n');
      expect((await harness.adb(['-s', harness.serial, 'reverse', '--remove-all'])).code).toBe(0);
      expect((await harness.adb(['-s', harness.serial, 'reverse', '--list'])).stdout.trim()).toBe('');
      expect(await harness.shell('echo ping | nc localhost 8123')).toMatchObject({ code: 1, stderr: 'nc: connect: Connection refused\n' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('no stream is left open once the commands are done', async () => {
    await harness.shell('echo done');
    await expect.poll(() => harness.device.adb.stats().streams).toBe(0);
    expect(harness.device.adb.stats().connections).toBe(1);
  });
});
