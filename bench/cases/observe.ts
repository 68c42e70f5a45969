// Observe: the Observer against the virtual phone running in its own process (so this process's CPU time is the
// host's share only), through a real, isolated adb server.
// - realistic profile: observe latency next to the slower of its two raw adb calls (screencap -p, uiautomator
//   dump) timed alone in the same run — observing in parallel should cost at most 1.15x that;
// - instant profile: host CPU per observe at 1080x2400 (PNG and raw screencap) with each stage's share, and
//   `uiautomator dump /dev/tty` against dump-to-file + cat;
// - Scene size in tokens (`estimateTokens`) and screenshot bytes on the task suite's screens;
// - over the dump corpus (test/fixtures/dumps): Scene tokens (median, max, against the budget) and build time;
// - over the real dumps (../shared/real-dumps: from-project, set-a, set-b), read with `dumpsys` silent: build time
//   (median, slowest, the largest dump, and an 800-node page made of them) and tokens per screen;
// - realistic profile on a screen that never goes idle (the loading bar runs): observe time through yadb's dump.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { AdbClient } from '../../src/core/device/adb-client';
import { runAdbBinary, type AdbServerAddress } from '../../src/core/device/adb-server';
import { parseWmSize } from '../../src/core/device/android/wm';
import { Observer } from '../../src/core/perception/observer';
import { downscale, dropAlpha, encodeRgb } from '../../src/core/perception/pixels';
import { DEFAULT_SCREENSHOT_ENCODING, encodeScreenshot, pngFromScreencap, rawFrameFromScreencap } from '../../src/core/perception/screenshot';
import { buildScene } from '../../src/core/perception/scene-builder';
import { estimateTokens } from '../../src/core/perception/scene-budget';
import { screenFacts } from '../../src/core/perception/screen-facts';
import { parseDisplayInfo } from '../../src/core/device/android/dumpsys';
import { parseUiHierarchy } from '../../src/core/perception/ui-hierarchy';
import { Executor } from '../../src/core/tools/executor';
import { DEFAULT_SCENE_TOKEN_BUDGET, sceneToJson, type Scene } from '../../src/shared/scene';
import { PHONE_TASKS } from '../../src/eval/tasks/index';
import { median, type BenchCase, type BenchRow } from '../types';
import { readRealDump, realDumps } from '../../test/support/real-dumps';

const CASE = 'observe';
const LATENCY_ROUNDS = 10;
const CPU_ROUNDS = 20;
/** Runs not counted before each CPU figure, and the observes counted for the host CPU per observe. */
const WARM_UP = 5;
const OBSERVE_ROUNDS = 40;
const BUILD_ROUNDS = 50;
const amcBin = path.resolve('bin/amc.mjs');

interface Phone {
  serial: string;
  controlUrl: string;
  adb: AdbClient;
  control(pathname: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `amc virtual-device` in a child process plus an adb server with its own HOME and port, connected to it. */
async function startPhone(profile: 'instant' | 'realistic'): Promise<Phone> {
  const child: ChildProcess = spawn(process.execPath, [amcBin, 'virtual-device', '--port', '0', '--control-port', '0', '--profile', profile]);
  const [serial, controlUrl] = await new Promise<[string, string]>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      const match = /adb connect (\S+) \| control API (\S+)/.exec(output);
      if (match) resolve([match[1]!, match[2]!]);
    });
    child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
    child.once('exit', (code) => reject(new Error(`amc virtual-device exited with ${code}: ${output}`)));
  });
  const home = await mkdtemp(path.join(tmpdir(), 'amc-bench-observe-'));
  const port = await freePort();
  const env = { ...process.env, HOME: home, ANDROID_ADB_LOG_PATH: path.join(home, 'adb.log'), ADB_EMU: '0' };
  const server: Pick<AdbServerAddress, 'adbPath' | 'env'> = { adbPath: 'adb', env };
  const adb = await AdbClient.create({ port, env });
  await adb.connectDevice(serial, { timeoutMs: 20_000 });
  for (let i = 0; i < 100 && !(await adb.listDevices()).some((d) => d.serial === serial && d.state === 'device'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const control = async (pathname: string, body?: unknown) => {
    const response = await fetch(`${controlUrl}${pathname}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${pathname}: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  };
  return {
    serial,
    controlUrl,
    adb,
    control,
    async close() {
      await adb.disconnectDevice(serial).catch(() => undefined);
      await runAdbBinary(server, ['-P', String(port), 'kill-server']).catch(() => undefined);
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(home, { recursive: true, force: true });
    },
  };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

async function latencyRows(rows: BenchRow[]): Promise<void> {
  const phone = await startPhone('realistic');
  try {
    // A network serial: the Observer takes `screencap -p` (see ObserverOptions.screencap), so that is the raw call.
    const observer = new Observer(phone.adb);
    const screencaps: number[] = [];
    const dumps: number[] = [];
    const observes: number[] = [];
    const ownRatios: number[] = [];
    await observer.observe(phone.serial); // warm-up: caches the screen size
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      screencaps.push(await timed(() => phone.adb.shellBytes(phone.serial, 'screencap -p')));
      dumps.push(await timed(() => phone.adb.shell(phone.serial, 'uiautomator dump /dev/tty')));
      const { timings } = await observer.observe(phone.serial);
      observes.push(timings.totalMs);
      ownRatios.push(timings.totalMs / Math.max(timings.dumpMs ?? 0, timings.screenshotMs ?? 0));
    }
    // A screen that never goes idle: uiautomator fails, and yadb's layout dump (yadb pushed as for typing) reads it.
    await phone.adb.shell(phone.serial, 'echo dex > /data/local/tmp/yadb');
    await phone.control('/loading-bar', { running: true });
    const neverIdle: number[] = [];
    let scenes = 0;
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      const observation = await observer.observe(phone.serial);
      neverIdle.push(observation.timings.totalMs);
      if (observation.scene?.dump === 'yadb') scenes++;
    }
    await phone.control('/loading-bar', { running: false });
    const slower = Math.max(median(screencaps), median(dumps));
    rows.push(
      { case: CASE, metric: 'realistic: screencap -p alone (median)', value: median(screencaps), unit: 'ms' },
      { case: CASE, metric: 'realistic: uiautomator dump alone (median)', value: median(dumps), unit: 'ms' },
      { case: CASE, metric: 'realistic: observe (median)', value: median(observes), unit: 'ms' },
      { case: CASE, metric: 'realistic: observe / slower raw call (medians; the phone jitters +-25%)', value: median(observes) / slower, unit: 'x', goal: '<= 1.15' },
      { case: CASE, metric: 'realistic: observe / its own slower call (median)', value: median(ownRatios), unit: 'x' },
      { case: CASE, metric: 'realistic, never-idle screen: observe via yadb (median)', value: median(neverIdle), unit: 'ms' },
      { case: CASE, metric: `realistic, never-idle screen: observes giving a Scene (of ${LATENCY_ROUNDS})`, value: scenes, unit: '', goal: `= ${LATENCY_ROUNDS}` },
    );
  } finally {
    await phone.close();
  }
}

/**
 * Host CPU (user + system, all threads of this process, the PNG worker's included) per run of `work`, in ms, after
 * `WARM_UP` runs not counted (the first starts the PNG worker; the next few let the JIT compile the hot paths).
 */
async function cpuPer(work: () => unknown, rounds = CPU_ROUNDS): Promise<number> {
  for (let round = 0; round < WARM_UP; round++) await work();
  const before = process.cpuUsage();
  for (let round = 0; round < rounds; round++) await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / rounds;
}

/** Host CPU of dropping the alpha byte of a fresh copy of `rgba` each round (the copy not counted), in ms. */
function cpuOfDropAlpha(rgba: Buffer, count: number): number {
  const scratch = Buffer.alloc(rgba.length);
  let used = 0;
  for (let round = 0; round <= CPU_ROUNDS; round++) {
    rgba.copy(scratch);
    const before = process.cpuUsage();
    dropAlpha(scratch, count);
    const spent = process.cpuUsage(before);
    if (round > 0) used += spent.user + spent.system; // the first round warms the JIT up
  }
  return used / 1000 / CPU_ROUNDS;
}

/**
 * Host CPU per observe on both capture paths (measured first, before this process holds any big buffer), then where
 * it goes, each stage timed alone on the same capture: the Scene (a Scene-only observe), the transfer, the alpha drop,
 * resize + JPEG less JPEG alone (the resize), JPEG alone (encoding pixels already at the model's size); for a PNG, its
 * decode and the hand-over to the PNG worker are the worker's whole encode less resize + JPEG. The demo phone's PNG
 * has no row filters (zlib level 1, the cheapest to make); Android's has adaptive filters (zlib level 6), so the same
 * capture is also encoded that way and the observe figure given with its encode in place of the demo phone's.
 */
async function cpuRows(rows: BenchRow[]): Promise<void> {
  const phone = await startPhone('instant');
  try {
    const pngObserver = new Observer(phone.adb, { screencap: 'png' });
    const rawObserver = new Observer(phone.adb, { screencap: 'raw' });
    const sceneObserver = new Observer(phone.adb, { screenshot: false });
    // A task observes the phone dozens of times: the figures are for an app past its first few turns.
    const pngObserve = await cpuPer(() => pngObserver.observe(phone.serial), OBSERVE_ROUNDS);
    const rawObserve = await cpuPer(() => rawObserver.observe(phone.serial), OBSERVE_ROUNDS);
    const scene = await cpuPer(() => sceneObserver.observe(phone.serial), OBSERVE_ROUNDS);

    let received: Buffer = Buffer.alloc(0);
    const pngTransfer = await cpuPer(async () => (received = await phone.adb.shellInto(phone.serial, 'screencap -p', received)));
    const png = pngFromScreencap(Buffer.from(received));
    received = Buffer.alloc(0);
    const rawTransfer = await cpuPer(async () => (received = await phone.adb.execInto(phone.serial, 'screencap', received)));
    const frame = rawFrameFromScreencap(received);
    const { width, height } = frame;
    const encoding = DEFAULT_SCREENSHOT_ENCODING;
    const pngEncode = await cpuPer(() => encodeScreenshot({ png }, encoding));
    const androidPng = await sharp(png).png({ compressionLevel: 6, adaptiveFiltering: true }).toBuffer();
    const androidPngEncode = await cpuPer(() => encodeScreenshot({ png: androidPng }, encoding));
    const drop = cpuOfDropAlpha(frame.pixels, width * height);
    const rgb = dropAlpha(frame.pixels, width * height);
    const small = downscale(sharp, rgb, width, height, encoding.longEdge);
    const smallRgb = await small.image.raw().toBuffer();
    const resizeAndJpeg = await cpuPer(() => encodeRgb(sharp, rgb, width, height, encoding));
    const jpeg = await cpuPer(() => encodeRgb(sharp, smallRgb, small.width, small.height, encoding));

    const sizes = `${width}x${height} -> ${small.width}x${small.height} JPEG q${encoding.quality}`;
    const stage = (name: string, value: number): BenchRow => ({ case: CASE, metric: `  stage: ${name}`, value, unit: 'ms' });
    const resizeAndJpegStages = [stage('resize, linear (libvips)', resizeAndJpeg - jpeg), stage('JPEG encode (libvips)', jpeg)];
    rows.push(
      { case: CASE, metric: `host CPU per observe, screencap -p, ${sizes} (default for network devices)`, value: pngObserve, unit: 'ms', goal: '< 25' },
      stage('Scene (dump, screen facts, parse, build: a Scene-only observe)', scene),
      stage(`screencap -p received into a reused buffer (${png.length} bytes)`, pngTransfer),
      stage('PNG decode to RGB (JavaScript, in the PNG worker) and hand-over to it', pngEncode - resizeAndJpeg),
      ...resizeAndJpegStages,
      {
        case: CASE,
        metric: `host CPU per observe, screencap -p with Android's PNG filters (adaptive, zlib 6: ${androidPng.length} bytes), the same with this PNG's encode`,
        value: pngObserve - pngEncode + androidPngEncode,
        unit: 'ms',
        goal: '< 25',
      },
      stage("PNG decode to RGB and hand-over, Android's filters", androidPngEncode - resizeAndJpeg),
      { case: CASE, metric: `host CPU per observe, raw screencap, ${sizes} (default for USB)`, value: rawObserve, unit: 'ms', goal: '< 25' },
      stage('Scene (as above)', scene),
      stage(`raw screencap received into a reused buffer (${received.length} bytes)`, rawTransfer),
      stage('alpha byte dropped in place (JavaScript)', drop),
      ...resizeAndJpegStages,
    );
    const tty: number[] = [];
    const file: number[] = [];
    for (let round = 0; round < CPU_ROUNDS; round++) {
      tty.push(await timed(() => phone.adb.shell(phone.serial, 'uiautomator dump /dev/tty')));
      file.push(
        await timed(() => phone.adb.shell(phone.serial, 'uiautomator dump /sdcard/window_dump.xml >/dev/null && cat /sdcard/window_dump.xml')),
      );
    }
    rows.push(
      { case: CASE, metric: 'instant: uiautomator dump /dev/tty (median)', value: median(tty), unit: 'ms' },
      { case: CASE, metric: 'instant: uiautomator dump to file + cat (median)', value: median(file), unit: 'ms' },
    );
  } finally {
    await phone.close();
  }
}

type Step = { tap: string } | { launch: string } | { swipeUntil: string } | { key: 'back' | 'home' };

/** Screens the task suite's goals pass through, each reached from a reset phone by label-grounded steps. */
const SCREENS: Array<{ name: string; seed?: unknown; faults?: string[]; steps: Step[] }> = [
  { name: 'launcher', steps: [] },
  { name: 'settings', steps: [{ launch: 'Settings' }] },
  { name: 'settings > network', steps: [{ launch: 'Settings' }, { tap: 'Network & internet' }] },
  { name: 'settings > connected devices', steps: [{ launch: 'Settings' }, { tap: 'Connected devices' }] },
  { name: 'settings > display', steps: [{ launch: 'Settings' }, { tap: 'Display' }] },
  { name: 'settings scrolled', steps: [{ launch: 'Settings' }, { swipeUntil: 'About phone' }] },
  { name: 'settings > about phone', steps: [{ launch: 'Settings' }, { swipeUntil: 'About phone' }, { tap: 'About phone' }] },
  { name: 'pop-up over settings', faults: ['popup-dialog'], steps: [] },
  { name: 'contacts permission dialog', steps: [{ launch: 'Contacts' }] },
  { name: 'contacts list (many)', seed: taskSeed('contacts-scroll-zoe'), steps: [{ launch: 'Contacts' }] },
  { name: 'contact editor + keyboard', seed: { contactsPermission: 'granted' }, steps: [{ launch: 'Contacts' }, { tap: 'Create contact' }, { tap: 'Name' }] },
  { name: 'clock alarms', steps: [{ launch: 'Clock' }] },
  { name: 'clock add alarm', steps: [{ launch: 'Clock' }, { tap: 'Add alarm' }] },
  { name: 'notes list (many)', seed: taskSeed('notes-scroll-pancakes'), steps: [{ launch: 'Notes' }] },
  { name: 'note editor + keyboard', steps: [{ launch: 'Notes' }, { tap: 'New note' }, { tap: 'Title' }] },
  { name: 'messages', steps: [{ launch: 'Messages' }] },
  { name: 'conversation', steps: [{ launch: 'Messages' }, { tap: 'Bob Smith' }] },
  { name: 'new conversation', steps: [{ launch: 'Messages' }, { tap: 'Start chat' }] },
];

function taskSeed(id: string): unknown {
  return PHONE_TASKS.find((task) => task.id === id)?.seed ?? {};
}

function findLabel(scene: Scene, label: string): string | undefined {
  return scene.elements.find((e) => e.text === label || e.desc === label || e.hint === label || e.text?.startsWith(`${label} | `))?.id;
}

async function sceneRows(rows: BenchRow[]): Promise<void> {
  const phone = await startPhone('instant');
  try {
    const observer = new Observer(phone.adb);
    const executor = new Executor(phone.adb);
    const tokens: number[] = [];
    const bytes: number[] = [];
    for (const screen of SCREENS) {
      try {
        await phone.control('/reset', screen.seed ?? {});
        for (const kind of screen.faults ?? []) await phone.control('/faults', { kind });
        let observation = await observer.observe(phone.serial);
        for (const step of screen.steps) {
          const scene = observation.scene;
          if (!scene) throw new Error(observation.sceneError);
          const run = async (name: string, args: Record<string, unknown>) => {
            const outcome = await executor.execute({ name, args }, { serial: phone.serial, scene });
            if (!outcome.ok) throw new Error(outcome.error);
          };
          if ('launch' in step) await run('launch_app', { app: step.launch });
          else if ('key' in step) await run('press_key', { key: step.key });
          else if ('tap' in step) {
            const id = findLabel(scene, step.tap);
            if (!id) throw new Error(`no "${step.tap}" on screen`);
            await run('tap', { element_id: id });
          } else {
            for (let swipe = 0; swipe < 6 && !findLabel(observation.scene!, step.swipeUntil); swipe++) {
              const list = observation.scene!.elements.find((e) => e.scrollable);
              await executor.execute({ name: 'swipe', args: { direction: 'up', ...(list && { element_id: list.id }) } }, { serial: phone.serial, scene: observation.scene });
              observation = await observer.observe(phone.serial);
            }
          }
          observation = await observer.observe(phone.serial);
        }
        if (!observation.scene) throw new Error(observation.sceneError);
        const sceneTokens = estimateTokens(sceneToJson(observation.scene));
        tokens.push(sceneTokens);
        if (observation.screenshot) bytes.push(observation.screenshot.bytes.length);
        rows.push({ case: CASE, metric: `Scene tokens: ${screen.name} (${observation.scene.elements.length} elements)`, value: sceneTokens, unit: 'tokens' });
      } catch (error) {
        process.stderr.write(`  screen "${screen.name}": ${error instanceof Error ? error.message : String(error)}\n`);
        rows.push({ case: CASE, metric: `Scene tokens: ${screen.name}`, value: Number.NaN, unit: 'tokens' });
      }
    }
    rows.push(
      { case: CASE, metric: `Scene tokens, median of ${tokens.length} task-suite screens`, value: median(tokens), unit: 'tokens', goal: '< 1200' },
      { case: CASE, metric: 'Scene tokens, largest screen', value: Math.max(...tokens), unit: 'tokens' },
      { case: CASE, metric: 'screenshot bytes sent (median, 655x1456 JPEG q80)', value: median(bytes), unit: 'bytes' },
      { case: CASE, metric: 'screenshot bytes sent (largest)', value: Math.max(...bytes), unit: 'bytes' },
    );
  } finally {
    await phone.close();
  }
}

interface CorpusCase {
  name: string;
  wmSize: string;
  display?: string;
  window: string;
}

/** Scene size and build time over the hand-written dumps of real apps' shapes (test/fixtures/dumps). */
async function corpusRows(rows: BenchRow[]): Promise<void> {
  const folder = new URL('../../test/fixtures/dumps/', import.meta.url);
  const cases = JSON.parse(readFileSync(new URL('cases.json', folder), 'utf8')) as CorpusCase[];
  const tokens: number[] = [];
  const buildMs: number[] = [];
  const xmlTokens: number[] = [];
  const builds = cases.map((corpusCase) => {
    const xml = readFileSync(new URL(`${corpusCase.name}.xml`, folder), 'utf8');
    const natural = parseWmSize(corpusCase.wmSize);
    const source = natural ? { natural } : parseDisplayInfo(corpusCase.display ?? '');
    xmlTokens.push(estimateTokens(xml));
    return () => {
      const hierarchy = parseUiHierarchy(xml);
      return buildScene(hierarchy, screenFacts(hierarchy, corpusCase.window, source));
    };
  });
  for (let round = 0; round < 5; round++) builds.forEach((build) => build()); // warm-up (JIT)
  for (const build of builds) {
    const times: number[] = [];
    let scene = build();
    for (let round = 0; round < BUILD_ROUNDS; round++) {
      const start = performance.now();
      scene = build();
      times.push(performance.now() - start);
    }
    tokens.push(estimateTokens(sceneToJson(scene)));
    buildMs.push(median(times));
  }
  rows.push(
    { case: CASE, metric: `corpus: Scene tokens, median of ${cases.length} dumps`, value: median(tokens), unit: 'tokens', goal: '< 1200' },
    { case: CASE, metric: `corpus: Scene tokens, largest (budget ${DEFAULT_SCENE_TOKEN_BUDGET})`, value: Math.max(...tokens), unit: 'tokens', goal: `<= ${DEFAULT_SCENE_TOKEN_BUDGET}` },
    { case: CASE, metric: 'corpus: dump XML tokens, median (what the Scene replaces)', value: median(xmlTokens), unit: 'tokens' },
    { case: CASE, metric: 'corpus: parse + build time per Scene (median of the dumps\' medians)', value: median(buildMs), unit: 'ms', goal: '< 5' },
    { case: CASE, metric: 'corpus: parse + build time per Scene (slowest dump)', value: Math.max(...buildMs), unit: 'ms', goal: '< 5' },
  );
}

/** Median time of `build` over BUILD_ROUNDS runs, after a warm-up. */
function medianBuildMs(build: () => unknown): number {
  for (let round = 0; round < 5; round++) build();
  const times: number[] = [];
  for (let round = 0; round < BUILD_ROUNDS; round++) {
    const start = performance.now();
    build();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function realDumpRows(rows: BenchRow[]): Promise<void> {
  const sceneOf = (xml: string) => {
    const hierarchy = parseUiHierarchy(xml);
    return buildScene(hierarchy, screenFacts(hierarchy, '', null));
  };
  const dumps = realDumps().map((dump) => ({ dump, xml: readRealDump(dump) }));
  // The app builds a Scene every turn with its code long compiled: one pass over every dump first, so that the first
  // dumps measured do not pay for the compiler's warm-up.
  for (const { xml } of dumps) sceneOf(xml);
  const measured = dumps.map(({ dump, xml }) => {
    return { name: `${dump.set}/${dump.name}`, xml, nodes: xml.match(/<node\b/g)?.length ?? 0, ms: medianBuildMs(() => sceneOf(xml)), tokens: estimateTokens(sceneToJson(sceneOf(xml))) };
  });
  const slowest = measured.reduce((worst, dump) => (dump.ms > worst.ms ? dump : worst));
  const largest = measured.reduce((most, dump) => (dump.xml.length > most.xml.length ? dump : most));
  const mostTokens = measured.reduce((most, dump) => (dump.tokens > most.tokens ? dump : most));
  // An 800-node page: the real dumps' windows side by side in one scrollable WebView, as a long page lists them.
  const windows: string[] = [];
  let nodes = 0;
  for (const dump of measured) {
    if (nodes >= 800) break;
    const root = /<hierarchy[^>]*>([\s\S]*)<\/hierarchy>/.exec(dump.xml)?.[1] ?? '';
    windows.push(root);
    nodes += dump.nodes;
  }
  const page = `<hierarchy rotation="0"><node class="android.webkit.WebView" package="com.android.chrome" text="" content-desc="" resource-id="" scrollable="true" bounds="[0,0][1080,2400]">${windows.join('')}</node></hierarchy>`;
  rows.push(
    { case: CASE, metric: `real dumps: parse + build time per Scene (median of ${measured.length} dumps)`, value: median(measured.map((dump) => dump.ms)), unit: 'ms', goal: '< 5' },
    { case: CASE, metric: `real dumps: parse + build time, slowest (${slowest.name}, ${slowest.nodes} nodes)`, value: slowest.ms, unit: 'ms', goal: '< 20' },
    { case: CASE, metric: `real dumps: parse + build time, largest dump (${largest.name}, ${largest.nodes} nodes, ${Math.round(largest.xml.length / 1024)} KB)`, value: largest.ms, unit: 'ms', goal: '< 20' },
    { case: CASE, metric: `real dumps: parse + build time, ${nodes}-node page`, value: medianBuildMs(() => sceneOf(page)), unit: 'ms', goal: '< 20 for 800 nodes' },
    { case: CASE, metric: 'real dumps: Scene tokens per screen (median)', value: median(measured.map((dump) => dump.tokens)), unit: 'tokens' },
    { case: CASE, metric: `real dumps: Scene tokens per screen (largest: ${mostTokens.name}; budget ${DEFAULT_SCENE_TOKEN_BUDGET})`, value: mostTokens.tokens, unit: 'tokens', goal: `<= ${DEFAULT_SCENE_TOKEN_BUDGET}` },
  );
}

const observeBench: BenchCase = {
  name: CASE,
  async run() {
    const rows: BenchRow[] = [];
    for (const part of [corpusRows, realDumpRows, latencyRows, cpuRows, sceneRows]) {
      try {
        await part(rows);
      } catch (error) {
        process.stderr.write(`  ${part.name}: ${error instanceof Error ? error.message : String(error)}\n`);
        rows.push({ case: CASE, metric: `${part.name} could not run`, value: Number.NaN, unit: '' });
      }
    }
    return rows;
  },
};

export default observeBench;
