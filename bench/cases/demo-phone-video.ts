// The demo phone's scrcpy video: what its own H.264 encoder costs per frame at the phone's size (1080x2400) and at a
// mirror's size (max_size=800: 360x800, scaling included), and the frames a client receives through the real adb
// server on the realistic profile (the phone paces 60 frames a second).
import * as adbkitNamespace from '@devicefarmer/adbkit';
import { PassThrough, type Duplex } from 'node:stream';
import sharp from 'sharp';
import { H264ScreenEncoder, VirtualPhone } from '@amc/demo-phone';
import { startAdbHarness } from '../../test/support/adb-harness';
import { readVideoPacket, StreamReader } from '../../test/virtual-device/scrcpy/stream-reader';
import { median, percentile, type BenchCase, type BenchRow } from '../types';
import { helperStandIn } from '../../test/support/helper-stand-in';

type AdbkitModule = typeof adbkitNamespace;
const adbkit: AdbkitModule =
  'Adb' in adbkitNamespace && adbkitNamespace.Adb ? adbkitNamespace : (adbkitNamespace as unknown as { default: AdbkitModule }).default;

const ROUNDS = 20;
const STREAM_SECONDS = 3;
const JAR = '/data/local/tmp/scrcpy-server.jar';

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

async function encoderRows(): Promise<BenchRow[]> {
  const phone = new VirtualPhone();
  const home = (await phone.framebuffer()).rgba;
  await phone.shell('am start -n com.android.settings/.Settings', { signal: new AbortController().signal });
  const settings = (await phone.framebuffer()).rgba;
  const rows: BenchRow[] = [];
  for (const size of [
    { width: 1080, height: 2400 },
    { width: 360, height: 800 },
  ]) {
    const label = `${size.width}x${size.height}`;
    const scale = async (rgba: Buffer): Promise<Uint8Array> =>
      size.width === 1080 ? rgba : sharp(rgba, { raw: { width: 1080, height: 2400, channels: 4 } }).resize(size.width, size.height, { fit: 'fill' }).raw().toBuffer();
    const encoder = new H264ScreenEncoder({ ...size, framesPerSecond: 60 });
    const key: number[] = [];
    const delta: number[] = [];
    let keyBytes = 0;
    let deltaBytes = 0;
    let stillBytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const keyFrame = await timed(async () => encoder.encodeKeyFrame(await scale(home)));
      key.push(keyFrame.ms);
      keyBytes = keyFrame.value.length;
      // Home -> Settings: most of the screen changes, as when an app opens.
      const deltaFrame = await timed(async () => encoder.encodeDeltaFrame(await scale(settings)));
      delta.push(deltaFrame.ms);
      deltaBytes = deltaFrame.value.length;
      stillBytes = encoder.encodeDeltaFrame().length;
    }
    const row = (metric: string, value: number, unit: string): number => rows.push({ case: 'demo-phone-video', metric: `${metric} (${label})`, value, unit });
    row('key frame encode, median', median(key), 'ms');
    row('key frame size', keyBytes, 'bytes');
    row('delta frame encode after an app switch, median', median(delta), 'ms');
    row('delta frame size after an app switch', deltaBytes, 'bytes');
    row('delta frame size, screen unchanged', stillBytes, 'bytes');
  }
  return rows;
}

async function streamRows(): Promise<BenchRow[]> {
  const harness = await startAdbHarness({ profile: 'realistic' });
  try {
    const device = adbkit.Adb.createClient({ port: harness.adbPort }).getDevice(harness.serial);
    const jar = new PassThrough();
    jar.end(helperStandIn('scrcpy-server'));
    const transfer = await device.push(jar, JAR, 0o644);
    await new Promise((resolve, reject) => transfer.on('end', resolve).on('error', reject));
    const scid = '0000be0c';
    const shell = (await device.shell(`CLASSPATH=${JAR} app_process / com.genymobile.scrcpy.Server 3.3.3 scid=${scid} video=true audio=false control=false tunnel_forward=true max_size=800`)) as Duplex;
    let video: StreamReader | undefined;
    for (let attempt = 0; !video && attempt < 200; attempt++) {
      try {
        video = new StreamReader((await device.openLocal(`localabstract:scrcpy_${scid}`)) as Duplex);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    if (!video) throw new Error('the scrcpy socket never opened');
    await video.read(1 + 64 + 12);
    await readVideoPacket(video); // config
    const arrivals: number[] = [];
    const deadline = performance.now() + STREAM_SECONDS * 1000;
    while (performance.now() < deadline) {
      await readVideoPacket(video);
      arrivals.push(performance.now());
    }
    const gaps = arrivals.slice(1).map((at, index) => at - arrivals[index]!);
    // A change on the phone until the frame showing it arrives.
    const changeLatency: number[] = [];
    for (let round = 0; round < 10; round++) {
      const command = round % 2 === 0 ? 'input keyevent HOME' : 'am start -n com.android.settings/.Settings';
      await adbkit.Adb.util.readAll((await device.shell(command)) as Duplex);
      const sentAt = performance.now();
      for (;;) {
        const packet = await readVideoPacket(video);
        if (packet.data.length > 1000) break;
      }
      changeLatency.push(performance.now() - sentAt);
    }
    video.stream.end();
    shell.end();
    const rows: BenchRow[] = [
      { case: 'demo-phone-video', metric: 'frames received per second (realistic, 360x800)', value: (arrivals.length - 1) / ((arrivals.at(-1)! - arrivals[0]!) / 1000), unit: 'fps', goal: '60 (the pacing)' },
      { case: 'demo-phone-video', metric: 'gap between frames, p95', value: percentile(gaps, 95), unit: 'ms' },
      { case: 'demo-phone-video', metric: 'input command done -> changed frame received, median', value: median(changeLatency), unit: 'ms' },
    ];
    return rows;
  } finally {
    await harness.stop();
  }
}

const demoPhoneVideoBench: BenchCase = {
  name: 'demo-phone-video',
  async run() {
    return [...(await encoderRows()), ...(await streamRows())];
  },
};

export default demoPhoneVideoBench;
