// The demo phone driven by a third-party adb client, Tango (@yume-chan/adb), through the real adb server.
// Every expected value comes from what Android 14 / toybox / adbd answer (their documentation and sources),
// not from the demo phone's code.
import { createServer, type Server } from 'node:net';
import { Adb, AdbServerClient } from '@yume-chan/adb';
import { AdbServerNodeTcpConnector } from '@yume-chan/adb-server-node-tcp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';

let harness: AdbHarness;
let adb: Adb;

beforeAll(async () => {
  harness = await startAdbHarness();
  const client = new AdbServerClient(new AdbServerNodeTcpConnector({ host: '127.0.0.1', port: harness.adbPort }));
  adb = new Adb(await client.createTransport({ serial: harness.serial }));
});
afterAll(async () => {
  await adb?.close();
  await harness?.stop();
});
beforeEach(async () => {
  await harness.reset();
});

async function shell(command: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const shellProtocol = adb.subprocess.shellProtocol;
  if (!shellProtocol) throw new Error('the device does not offer shell_v2');
  return shellProtocol.spawnWaitText(command);
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

describe('Tango (@yume-chan/adb) against the demo phone', () => {
  it('Scenario: Tango reads properties and runs scripts with tests, connectors and exit codes', async () => {
    expect(await adb.getProp('ro.build.version.sdk')).toBe('34');
    expect(await shell('[ -e /sdcard ] && echo ok')).toEqual({ stdout: 'ok\n', stderr: '', exitCode: 0 });
    expect(await shell('[ -e /sdcard/none ] && echo ok')).toEqual({ stdout: '', stderr: '', exitCode: 1 });
    expect(await shell('test 3 -gt 2 || echo no; if [ -d /sdcard ]; then echo dir; else echo file; fi')).toMatchObject({ stdout: 'dir\n', exitCode: 0 });
    expect((await shell('export GREETING=hi; exec echo $GREETING')).stdout).toBe('hi\n');
    // mksh's message for a command that does not exist, with its exit status 127.
    expect(await shell('frobnicate')).toEqual({ stdout: '', stderr: '/system/bin/sh: frobnicate: inaccessible or not found\n', exitCode: 127 });
  });

  it('Scenario: Tango feeds stdin to a one-shot command over the shell protocol and the legacy shell', async () => {
    const process = await adb.subprocess.shellProtocol!.spawn('cat > /sdcard/in.txt; cat /sdcard/in.txt');
    const writer = process.stdin.getWriter();
    await writer.write(new TextEncoder().encode('from the host\n'));
    await writer.close();
    expect(await readAll(process.stdout as unknown as ReadableStream<Uint8Array>)).toBe('from the host\n');
    expect(await process.exited).toBe(0);

    // Without the shell protocol stdin cannot be closed: `cat` echoes each chunk as it arrives.
    const legacy = await adb.subprocess.noneProtocol.spawn('cat');
    const legacyWriter = legacy.stdin.getWriter();
    await legacyWriter.write(new TextEncoder().encode('ping\n'));
    const reader = legacy.output.getReader();
    const { value } = await reader.read();
    expect(Buffer.from(value ?? new Uint8Array()).toString('utf8')).toBe('ping\n');
    await legacy.kill();
  });

  it('Scenario: Tango removes files and sees a file path with a slash as not a directory', async () => {
    const sync = await adb.sync();
    try {
      await sync.write({ filename: '/sdcard/note.txt', file: new Blob(['hello']).stream() as never });
      expect(await sync.isDirectory('/sdcard')).toBe(true);
      // isDirectory stats `PATH/`: stat(2) of a file with a trailing slash is ENOTDIR.
      expect(await sync.isDirectory('/sdcard/note.txt')).toBe(false);
      expect((await sync.lstat('/sdcard/note.txt')).size).toBe(5n);
    } finally {
      await sync.dispose();
    }
    await adb.rm('/sdcard/note.txt');
    expect((await shell('ls /sdcard/note.txt')).stderr).toBe('ls: /sdcard/note.txt: No such file or directory\n');
  });

  it('Scenario: Tango reads the framebuffer as a version 2 RGBA image', async () => {
    const frame = await adb.framebuffer();
    // colorSpace exists only in the version 2 header.
    expect(frame).toMatchObject({ colorSpace: 0, bpp: 32, width: 1080, height: 2400, red_offset: 0, green_offset: 8, blue_offset: 16, alpha_offset: 24 });
    expect(frame.data.length).toBe(1080 * 2400 * 4);
    // A lit screen: some pixel is not black.
    expect(frame.data.some((byte, index) => index % 4 !== 3 && byte !== 0)).toBe(true);
  });

  describe('reverse forwarding', () => {
    let server: Server;
    let hostPort: number;
    beforeAll(async () => {
      server = createServer((socket) => socket.once('data', (data) => socket.end(`host got ${data.toString('utf8')}`)));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      hostPort = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('Scenario: Tango adds, lists and removes reverse forwards that reach the host port', async () => {
      expect(await adb.reverse.list()).toEqual([]);
      expect(await adb.reverse.addExternal('tcp:8080', `tcp:${hostPort}`)).toBe('tcp:8080');
      expect((await adb.reverse.list()).map(({ localName, remoteName }) => ({ localName, remoteName }))).toEqual([
        { localName: 'tcp:8080', remoteName: `tcp:${hostPort}` },
      ]);
      expect(await shell('echo hello | nc 127.0.0.1 8080')).toMatchObject({ stdout: 'host got hello\n', exitCode: 0 });
      await adb.reverse.remove('tcp:8080');
      expect(await adb.reverse.list()).toEqual([]);
      await expect(adb.reverse.remove('tcp:8080')).rejects.toThrow("listener 'tcp:8080' not found");
      expect(await shell('echo hello | nc 127.0.0.1 8080')).toMatchObject({ stdout: '', exitCode: 1 });
    });
  });

  it('Scenario: Tango finds packages, processes and the time the way a real phone prints them', async () => {
    const resolved = await shell('cmd package resolve-activity --brief com.android.settings');
    expect(resolved.stdout.trim().split('\n').pop()).toBe('com.android.settings/.Settings');
    const versions = (await shell('cmd package list packages --show-versioncode')).stdout.trim().split('\n');
    expect(versions.every((line) => /^package:[\w.]+ versionCode:\d+$/.test(line))).toBe(true);
    expect(versions.some((line) => line.startsWith('package:com.android.settings '))).toBe(true);
    expect((await shell('pm list packages -3')).stdout.split('\n').filter(Boolean).every((line) => line.startsWith('package:'))).toBe(true);

    expect(await shell('cmd connectivity airplane-mode enable')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect((await harness.state()).settings.airplaneMode).toBe(true);
    expect((await shell('cmd connectivity airplane-mode')).stdout).toBe('enabled\n');

    await shell('am start -n com.android.settings/.Settings');
    const ps = (await shell('ps -A')).stdout.split('\n');
    expect(ps[0]).toBe('USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME');
    const pidOf = (lines: string[]) => lines.find((line) => line.endsWith(' com.android.settings'))?.trim().split(/\s+/)[1];
    const before = pidOf(ps);
    expect(before).toMatch(/^\d+$/);
    await shell('am force-stop com.android.settings');
    expect(pidOf((await shell('ps -A')).stdout.split('\n'))).toBeUndefined();
    await shell('am start -n com.android.settings/.Settings');
    const after = pidOf((await shell('ps -A')).stdout.split('\n'));
    expect(after).toMatch(/^\d+$/);
    expect(after).not.toBe(before);

    const seconds = Number((await shell('date +%s')).stdout);
    expect(Math.abs(seconds - Date.now() / 1000)).toBeLessThan(60);
    expect((await shell('date +%s%3N')).stdout).toMatch(/^\d{13}\n$/);
  });

  it('Scenario: Tango locks the phone with the power key and unlocks it with a swipe up', async () => {
    await shell('input keyevent 26');
    expect((await shell('dumpsys power')).stdout).toContain('mWakefulness=Asleep');
    await shell('input keyevent 26');
    const window = (await shell('dumpsys window')).stdout;
    expect(window).toMatch(/KeyguardStateMonitor\s+mIsShowing=true/);
    expect(window).toMatch(/\s+mInputRestricted=true/);
    expect((await harness.state()).locked).toBe(true);
    await shell('input swipe 540 2000 540 600');
    expect((await harness.state()).locked).toBe(false);
    expect((await shell('dumpsys window')).stdout).toMatch(/KeyguardStateMonitor\s+mIsShowing=false/);
  });

  it('Scenario: Tango pulls the shade down, reads displays, processes and package paths, and redirects like sh', async () => {
    expect(await shell('cmd statusbar expand-notifications')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect((await harness.state()).shadeExpanded).toBe(true);
    expect(await shell('cmd statusbar collapse')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect((await harness.state()).shadeExpanded).toBe(false);

    // `pm path` prints one `package:` line per APK; `-s` lists system packages only, `-f` adds the APK path.
    expect((await shell('cmd package path com.android.settings')).stdout).toMatch(/^package:\/\S+\.apk\n$/);
    const system = (await shell('pm list packages -s')).stdout.split('\n');
    expect(system).toContain('package:com.android.settings');
    expect(system).not.toContain('package:com.amc.notes');
    expect((await shell('pm list packages -f')).stdout).toMatch(/^package:\/\S+\.apk=com\.android\.settings$/m);

    await shell('am start -n com.android.settings/.Settings');
    const pid = (await shell('pidof com.android.settings')).stdout.trim();
    expect(pid).toMatch(/^\d+$/);
    // ProcessRecord{HASH PID:PROCESS/u0aAPPID}
    expect((await shell('dumpsys activity processes')).stdout).toMatch(new RegExp(`ProcessRecord\\{[0-9a-f]+ ${pid}:com\\.android\\.settings/u0a\\d+\\}`));

    expect((await shell('dumpsys display')).stdout).toMatch(/1080 x 2400[\s\S]*mScreenState=ON/);
    await shell('input keyevent 26');
    expect((await shell('dumpsys display')).stdout).toContain('mScreenState=OFF');
    expect((await shell('dumpsys window')).stdout).toContain('screenState=SCREEN_STATE_OFF');

    expect((await shell('echo a > /sdcard/f; echo b >> /sdcard/f; cat < /sdcard/f')).stdout).toBe('a\nb\n');
    expect(await shell('ls /sdcard/none 2>&1 | grep -c none')).toEqual({ stdout: '1\n', stderr: '', exitCode: 0 });
  });
});
