import * as adbkitNamespace from '@devicefarmer/adbkit';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, type Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOADING_BAR } from '../../../packages/demo-phone/src/phone/loading-bar';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { parseDump, centerOf } from '../../tasks/phone-driver';
import { readVideoPacket, StreamReader, type VideoPacket } from './stream-reader';
import { helperStandIn } from '../../support/helper-stand-in';

type AdbkitModule = typeof adbkitNamespace;
const adbkit: AdbkitModule =
  'Adb' in adbkitNamespace && adbkitNamespace.Adb ? adbkitNamespace : (adbkitNamespace as unknown as { default: AdbkitModule }).default;
const { Adb } = adbkit;

const JAR = '/data/local/tmp/scrcpy-server.jar';
const SCREEN = { width: 1080, height: 2400 };

/** Control messages written byte by byte from scrcpy's ControlMessageReader layout (big-endian). */
function touch(action: number, x: number, y: number, size: { width: number; height: number }): Buffer {
  const message = Buffer.alloc(32);
  message.writeUInt8(2, 0);
  message.writeUInt8(action, 1);
  message.writeBigUInt64BE(0xffff_ffff_ffff_fffen, 2); // scrcpy's POINTER_ID_GENERIC_FINGER
  message.writeInt32BE(x, 10);
  message.writeInt32BE(y, 14);
  message.writeUInt16BE(size.width, 18);
  message.writeUInt16BE(size.height, 20);
  message.writeUInt16BE(action === 1 ? 0 : 0xffff, 22);
  message.writeInt32BE(1, 24); // action button: primary
  message.writeInt32BE(action === 1 ? 0 : 1, 28);
  return message;
}
function keycode(action: number, code: number): Buffer {
  const message = Buffer.alloc(14);
  message.writeUInt8(0, 0);
  message.writeUInt8(action, 1);
  message.writeInt32BE(code, 2);
  return message;
}
function text(value: string): Buffer {
  const body = Buffer.from(value, 'utf8');
  const header = Buffer.alloc(5);
  header.writeUInt8(1, 0);
  header.writeUInt32BE(body.length, 1);
  return Buffer.concat([header, body]);
}
const backOrScreenOn = (action: number): Buffer => Buffer.from([4, action]);

interface Session {
  scid: string;
  shell: Duplex;
  shellOutput: StreamReader;
  video: StreamReader;
  control: StreamReader;
  size: { width: number; height: number };
  deviceName: string;
  config: VideoPacket;
}

describe('demo phone speaks scrcpy 3.3.3 through the real adb server', () => {
  let harness: AdbHarness;
  let client: adbkitNamespace.Client;
  let device: adbkitNamespace.DeviceClient;

  beforeAll(async () => {
    harness = await startAdbHarness();
    client = Adb.createClient({ port: harness.adbPort });
    device = client.getDevice(harness.serial);
  }, 60_000);

  /** Pushes the server as a client does before each start (a phone reset empties /data/local/tmp). */
  async function pushServer(): Promise<void> {
    const jar = new PassThrough();
    // Any bytes do: the demo phone checks the jar is there, not what it holds.
    jar.end(helperStandIn('scrcpy-server'));
    const transfer = await device.push(jar, JAR, 0o644);
    await new Promise((resolve, reject) => transfer.on('end', resolve).on('error', reject));
  }

  afterAll(async () => {
    await harness?.stop();
  });

  /** Opens `localabstract:scrcpy_<scid>`, retrying while the server is not listening yet (adbd refuses the stream). */
  async function openSocket(scid: string): Promise<StreamReader> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        return new StreamReader(await device.openLocal(`localabstract:scrcpy_${scid}`));
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  async function startSession(options: string): Promise<Session> {
    await pushServer();
    const scid = Math.floor(Math.random() * 0x7fffffff).toString(16).padStart(8, '0');
    const shell = await device.shell(`CLASSPATH=${JAR} app_process / com.genymobile.scrcpy.Server 3.3.3 scid=${scid} log_level=info video=true audio=false control=true tunnel_forward=true ${options}`);
    const shellOutput = new StreamReader(shell);
    const video = await openSocket(scid);
    expect([...(await video.read(1))]).toEqual([0]);
    const control = await openSocket(scid);
    const deviceName = (await video.read(64)).toString('utf8').replace(/\0+$/, '');
    const codec = await video.read(12);
    expect(codec.subarray(0, 4).toString('ascii')).toBe('h264');
    const size = { width: codec.readUInt32BE(4), height: codec.readUInt32BE(8) };
    const config = await readVideoPacket(video);
    return { scid, shell, shellOutput, video, control, size, deviceName, config };
  }

  function close(session: Session): void {
    session.video.stream.end();
    session.control.stream.end();
  }

  /** Frames until one satisfies `accept` (the screen is re-sent while unchanged, so this never starves). */
  async function frameWhere(session: Session, accept: (frame: VideoPacket) => boolean): Promise<VideoPacket> {
    for (let count = 0; count < 400; count++) {
      const packet = await readVideoPacket(session.video);
      if (!packet.config && accept(packet)) return packet;
    }
    throw new Error('no matching frame in 400 packets');
  }

  async function waitForState(check: (state: Awaited<ReturnType<AdbHarness['state']>>) => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!check(await harness.state())) {
      if (Date.now() > deadline) throw new Error(`the phone never reached: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async function serverPids(): Promise<string[]> {
    const ps = await harness.shell('ps -A');
    return ps.stdout.split('\n').filter((line) => line.endsWith(' app_process')).map((line) => line.trim().split(/\s+/)[1]!);
  }

  /** The decoded frames (as yuv420p) of config + frames, through Debian's ffmpeg. */
  function decode(config: VideoPacket, frames: VideoPacket[]): Buffer {
    const dir = mkdtempSync(path.join(tmpdir(), 'amc-scrcpy-'));
    const file = path.join(dir, 'stream.h264');
    writeFileSync(file, Buffer.concat([config.data, ...frames.map((frame) => frame.data)]));
    return execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-'], { maxBuffer: 64 * 1024 * 1024 });
  }

  /**
   * Reads frames until one shows another picture than `before` (on a busy machine one may come first that repeats the
   * screen as it was); the change comes as delta frames over the key frame.
   */
  async function expectPictureChange(session: Session, before: VideoPacket): Promise<void> {
    const frameBytes = session.size.width * session.size.height * 1.5;
    const deltas: VideoPacket[] = [];
    let changed = false;
    while (!changed && deltas.length < 10) {
      deltas.push(await frameWhere(session, () => true));
      const decoded = decode(session.config, [before, ...deltas]);
      expect(decoded.length).toBe((1 + deltas.length) * frameBytes);
      changed = !decoded.subarray(0, frameBytes).equals(decoded.subarray(deltas.length * frameBytes));
    }
    expect(changed).toBe(true);
    expect(deltas.every((frame) => !frame.keyFrame)).toBe(true);
  }

  it('Scenario: A pushed scrcpy server streams the screen as H.264 on localabstract sockets', async () => {
    const session = await startSession('max_size=800');
    expect(session.deviceName).toBe('AMC_Virtual_Phone');
    expect(session.size).toEqual({ width: 360, height: 800 });
    expect(session.config).toMatchObject({ config: true, keyFrame: false, ptsUs: 0n });
    // SPS then PPS, Annex B.
    expect([...session.config.data.subarray(0, 5)]).toEqual([0, 0, 0, 1, 0x67]);
    const first = await frameWhere(session, () => true);
    expect(first.keyFrame).toBe(true);
    const second = await frameWhere(session, () => true);
    expect(second.ptsUs).toBeGreaterThan(first.ptsUs);
    const decoded = decode(session.config, [first, second]);
    expect(decoded.length).toBe(2 * 360 * 800 * 1.5);
    // The home screen is not one flat colour: the luma plane carries the picture.
    expect(new Set(decoded.subarray(0, 360 * 800)).size).toBeGreaterThan(20);
    const output = await session.shellOutput.read(1);
    expect(output.length).toBe(1);
    close(session);
    await session.shellOutput.waitForEnd();
  });

  it('Scenario: Without max_size the stream has the screen size', async () => {
    const session = await startSession('');
    expect(session.size).toEqual(SCREEN);
    const frame = await frameWhere(session, () => true);
    expect(decode(session.config, [frame]).length).toBe(SCREEN.width * SCREEN.height * 1.5);
    close(session);
    await session.shellOutput.waitForEnd();
  });

  it('Scenario: ps lists the scrcpy server while it runs and never after the client closes its sockets', async () => {
    const before = await serverPids();
    const session = await startSession('max_size=400');
    const running = await serverPids();
    expect(running.length).toBe(before.length + 1);
    close(session);
    await session.shellOutput.waitForEnd();
    expect(await serverPids()).toEqual(before);
  });

  it('Scenario: scrcpy control messages reach the phone as touches, keys, text and back', async () => {
    await harness.reset();
    const session = await startSession('max_size=800');
    const { size } = session;
    const dump = (await harness.shell('uiautomator dump /dev/tty')).stdout;
    const settings = parseDump(dump).find((node) => node.contentDesc === 'Settings' || node.text === 'Settings');
    expect(settings).toBeDefined();
    const { x, y } = centerOf(settings!);
    const at = { x: Math.round((x * size.width) / SCREEN.width), y: Math.round((y * size.height) / SCREEN.height) };
    const control = session.control.stream;
    // The touch, split over two writes like a TCP stream may be.
    const tap = Buffer.concat([touch(0, at.x, at.y, size), touch(1, at.x, at.y, size)]);
    control.write(tap.subarray(0, 20));
    control.write(tap.subarray(20));
    await waitForState((state) => state.foreground === 'com.android.settings', 'Settings in front after a tap');
    control.write(backOrScreenOn(0));
    control.write(backOrScreenOn(1));
    await waitForState((state) => state.foreground !== 'com.android.settings', 'Settings left after BACK');
    // Keycodes: POWER turns the screen off, BACK_OR_SCREEN_ON wakes it.
    control.write(Buffer.concat([keycode(0, 26), keycode(1, 26)]));
    await waitForState((state) => !state.screenOn, 'screen off after POWER');
    control.write(Buffer.concat([backOrScreenOn(0), backOrScreenOn(1)]));
    await waitForState((state) => state.screenOn, 'screen on after BACK_OR_SCREEN_ON');
    close(session);
    await session.shellOutput.waitForEnd();
  });

  it('Scenario: Injected text types into the focused field', async () => {
    await harness.reset({ contactsPermission: 'granted' });
    await harness.shell('am start -n com.android.contacts/.activities.PeopleActivity');
    const tapOn = async (match: (node: ReturnType<typeof parseDump>[number]) => boolean): Promise<void> => {
      const node = parseDump((await harness.shell('uiautomator dump /dev/tty')).stdout).find(match);
      expect(node).toBeDefined();
      const { x, y } = centerOf(node!);
      await harness.shell(`input tap ${x} ${y}`);
    };
    await tapOn((node) => node.contentDesc === 'Create contact');
    await tapOn((node) => node.resourceId.endsWith('editor_name'));
    const session = await startSession('max_size=800');
    session.control.stream.write(text('Dave 李'));
    const deadline = Date.now() + 15_000;
    let typed = '';
    while (typed !== 'Dave ' && Date.now() < deadline) {
      const node = parseDump((await harness.shell('uiautomator dump /dev/tty')).stdout).find((candidate) => candidate.resourceId.endsWith('editor_name'));
      typed = node?.text ?? '';
    }
    // Like scrcpy's key-event injection, characters outside the key map (李) are skipped with a warning.
    expect(typed).toBe('Dave ');
    close(session);
    await session.shellOutput.waitForEnd();
  });

  it('Scenario: A change on the phone sends a new frame', async () => {
    await harness.reset();
    const session = await startSession('max_size=400');
    const before = await frameWhere(session, () => true);
    await harness.shell('am start -n com.android.settings/.Settings');
    expect(before.keyFrame).toBe(true);
    await expectPictureChange(session, before);
    close(session);
    await session.shellOutput.waitForEnd();
  });

  it('Scenario: An app switch through the control API reaches a running video', async () => {
    await harness.reset();
    const session = await startSession('max_size=400');
    const before = await frameWhere(session, () => true);
    expect(before.keyFrame).toBe(true);
    expect((await harness.control('/foreground', { body: { package: 'com.example.nope' } })).status).toBe(400);
    const switched = await harness.control('/foreground', { body: { package: 'com.android.settings' } });
    expect(switched.body).toEqual({ foreground: 'com.android.settings' });
    // Unlike a reset, the switch leaves the server running: the same session shows the new picture.
    await expectPictureChange(session, before);
    expect((await harness.control('/foreground', { body: {} })).body).toEqual({ foreground: 'com.android.launcher3' });
    close(session);
    await session.shellOutput.waitForEnd();
  });

  it('Scenario: The loading bar changes the screen on every frame and tells when it was captured', async () => {
    await harness.reset();
    const bad = await harness.control('/loading-bar', { body: { running: 'yes' } });
    expect(bad.status).toBe(400);
    const started = Date.now();
    expect((await harness.control('/loading-bar', { body: { running: true } })).body).toEqual({ running: true });
    const session = await startSession('max_size=400');
    const key = await frameWhere(session, () => true);
    expect(key.keyFrame).toBe(true);
    // The instant profile sends a frame only when the screen changed: with the bar, every interval.
    const frames: VideoPacket[] = [];
    for (let count = 0; count < 6; count++) frames.push(await frameWhere(session, () => true));
    const decoded = decode(session.config, [key, ...frames]);
    const { width, height } = session.size;
    const frameBytes = width * height * 1.5;
    const row = Math.floor(((LOADING_BAR.top + LOADING_BAR.height / 2) * height) / SCREEN.height);
    const fills = frames.map((_, index) => {
      const luma = decoded.subarray((index + 1) * frameBytes + row * width, (index + 1) * frameBytes + (row + 1) * width);
      return luma.filter((value) => value > 128).length / width;
    });
    expect(new Set(fills).size).toBeGreaterThanOrEqual(3);
    // Each fill is the wall-clock time of its capture, modulo the period: after the bar started, before now.
    const period = LOADING_BAR.periodMs;
    for (const fill of fills) {
      const now = Date.now();
      const capturedAt = now - ((((now % period) - fill * period) % period) + period) % period;
      expect(capturedAt).toBeGreaterThanOrEqual(started - 2 * (period / width));
    }
    expect((await harness.control('/loading-bar', { body: { running: false } })).body).toEqual({ running: false });
    close(session);
    await session.shellOutput.waitForEnd();
  });

  it('Scenario: A rotation sends a new configuration and a key frame at the turned size', async () => {
    await harness.reset();
    const session = await startSession('max_size=400');
    expect(session.size).toEqual({ width: 184, height: 400 });
    await frameWhere(session, (frame) => frame.keyFrame);
    // scrcpy's ROTATE_DEVICE (type 11): portrait turns to landscape with auto-rotate frozen.
    session.control.stream.write(Buffer.from([11]));
    let config: VideoPacket | undefined;
    for (let count = 0; count < 400 && !config; count++) {
      const packet = await readVideoPacket(session.video);
      if (packet.config) config = packet;
    }
    expect(config).toBeDefined();
    const key = await readVideoPacket(session.video);
    expect(key.keyFrame).toBe(true);
    const decoded = decode(config!, [key]);
    expect(decoded.length).toBe(400 * 184 * 1.5);
    expect((await harness.shell('settings get system user_rotation')).stdout.trim()).toBe('1');
    expect((await harness.shell('settings get system accelerometer_rotation')).stdout.trim()).toBe('0');
    close(session);
    await session.shellOutput.waitForEnd();
    await harness.reset();
  });

  it("Scenario: A wrong client version stops the server with scrcpy's message", async () => {
    await pushServer();
    const result = await harness.shell(`CLASSPATH=${JAR} app_process / com.genymobile.scrcpy.Server 2.7 scid=00000001 tunnel_forward=true`);
    expect(result.stdout).toContain('The server version (3.3.3) does not match the client (2.7)');
    const missing = await harness.shell('CLASSPATH=/data/local/tmp/missing.jar app_process / com.genymobile.scrcpy.Server 3.3.3');
    expect(missing.stdout + missing.stderr).toContain('ClassNotFoundException');
  });

  it('Scenario: The scrcpy-crash fault ends the stream mid-way and leaves no server behind', async () => {
    const before = await serverPids();
    const session = await startSession('max_size=400');
    await frameWhere(session, () => true);
    expect((await harness.control('/faults', { body: { kind: 'scrcpy-crash' } })).status).toBe(200);
    await session.video.waitForEnd();
    await session.control.waitForEnd();
    await session.shellOutput.waitForEnd();
    expect(await serverPids()).toEqual(before);
    expect((await harness.control<{ faults: Array<{ kind: string }> }>('/faults')).body.faults).toEqual([]);
  });

  it('Scenario: The push-refused fault fails the next push only', async () => {
    expect((await harness.control('/faults', { body: { kind: 'push-refused' } })).status).toBe(200);
    await expect(pushServer()).rejects.toThrow(/Permission denied/);
    await pushServer();
    expect((await harness.shell(`ls ${JAR}`)).stdout.trim()).toBe(JAR);
  });
});
