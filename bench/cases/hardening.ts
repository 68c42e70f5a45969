// Hardening: the web host under 10,000 fuzzed frames while a task runs on the virtual phone (memory back to its
// baseline), a fault soak of 100 tasks, and 50 SIGKILLs of a history and settings writer. The pass/fail versions
// with small counts are test/app/web/web-host-hardening.test.ts, test/app/fault-soak.test.ts and
// test/core/storage/crash-safety.test.ts; here the full counts are measured and reported.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startWebHost } from '../../src/app/web/web-host';
import { finish, startAnthropicFake, tapLabel } from '../../test/fakes/index';
import { isolatedEnv, removeHome, startTestApp, until } from '../../test/app/app-fixture';
import { startAdbHarness } from '../../test/support/adb-harness';
import { runCrashSafety } from '../../test/support/crash-safety';
import { runFaultSoak } from '../../test/support/fault-soak';
import { runWebFuzz } from '../../test/support/web-fuzz';
import type { BenchCase, BenchRow } from '../types';

const FUZZ_FRAMES = 10_000;
const SOAK_TASKS = 100;
const KILLS = 50;
const MiB = 1024 * 1024;

/** A full collection before each memory reading, so the figures compare live memory, not garbage. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
function rssAfterGc(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().rss;
}

async function fuzzRows(): Promise<BenchRow[]> {
  const harness = await startAdbHarness();
  let releaseModel!: () => void;
  const modelMayAnswer = new Promise<void>((resolve) => (releaseModel = resolve));
  const fake = await startAnthropicFake({
    policy: async (turn) => {
      if (turn.callIndex > 0) return finish(true, 'Settings is open');
      await modelMayAnswer;
      return tapLabel('Settings')(turn) ?? finish(false, 'no Settings icon');
    },
  });
  const app = await startTestApp({ env: isolatedEnv(harness.env) });
  const rendererDir = await mkdtemp(path.join(os.tmpdir(), 'amc-renderer-'));
  const host = await startWebHost({ router: app.app.router, events: app.app.events, rendererDir });
  const warn = console.warn;
  console.warn = () => undefined; // one line per closed fuzz connection would drown the table
  try {
    await app.call('settings.update', {
      patch: { aiPlanner: { enabled: true, provider: 'anthropic', transport: 'direct', model: 'claude-test', timeoutSeconds: 600, sendScreenshot: false }, anthropic: { baseURL: fake.url } },
    });
    await app.call('settings.setSecret', { name: 'ANTHROPIC_API_KEY', value: 'test-anthropic-key' });
    await harness.shell('input keyevent 3');
    const task = await app.call('tasks.run', { serial: harness.serial, goal: 'Open the Settings app' });
    await until(() => fake.requests.length > 0, 20_000, 'the first model call');
    await runWebFuzz(host, 500, 99); // warm-up: code paths loaded, buffers allocated
    const baseline = rssAfterGc();
    const started = Date.now();
    const result = await runWebFuzz(host, FUZZ_FRAMES, 1);
    const seconds = (Date.now() - started) / 1000;
    const peak = process.memoryUsage().rss;
    releaseModel();
    const finished = await app.waitForTaskEvent(task.id, 'task.finished', 60_000);
    await until(() => host.connections === 0, 20_000, 'every fuzz connection to end');
    const after = rssAfterGc();
    const closed = Object.values(result.closedBy).reduce((a, b) => a + b, 0);
    return [
      { case: 'hardening', metric: 'fuzz: frames sent', value: result.frames, unit: 'frames', goal: '10,000' },
      { case: 'hardening', metric: 'fuzz: connections opened / closed by the host', value: result.connections, unit: `/ ${closed} closed` },
      { case: 'hardening', metric: 'fuzz: frames per second', value: result.frames / seconds, unit: '/s' },
      { case: 'hardening', metric: 'fuzz: host still serving, task completed', value: finished.status === 'completed' ? 1 : 0, unit: `(${finished.status})`, goal: '1' },
      { case: 'hardening', metric: 'fuzz: RSS baseline', value: baseline / MiB, unit: 'MiB' },
      { case: 'hardening', metric: 'fuzz: RSS peak during fuzz', value: peak / MiB, unit: 'MiB' },
      { case: 'hardening', metric: 'fuzz: RSS after (gc)', value: after / MiB, unit: 'MiB' },
      { case: 'hardening', metric: 'fuzz: RSS after / baseline', value: (100 * after) / baseline, unit: '%', goal: '80-120 %' },
    ];
  } finally {
    console.warn = warn;
    releaseModel();
    await host.close();
    await app.close();
    await fake.close();
    await harness.stop();
    await removeHome(app.home);
    await rm(rendererDir, { recursive: true, force: true });
  }
}

async function soakRows(): Promise<BenchRow[]> {
  const harness = await startAdbHarness();
  const app = await startTestApp({ env: isolatedEnv(harness.env) });
  try {
    const before = rssAfterGc();
    const result = await runFaultSoak(app, harness, SOAK_TASKS);
    const after = rssAfterGc();
    const terminal = (result.statuses.completed ?? 0) + (result.statuses.failed ?? 0) + (result.statuses.cancelled ?? 0);
    const rows: BenchRow[] = [
      { case: 'hardening', metric: 'soak: tasks', value: result.tasks, unit: 'tasks', goal: '100' },
      { case: 'hardening', metric: 'soak: faults injected (each kind in turn)', value: Object.values(result.faults).reduce((a, b) => a + (b ?? 0), 0), unit: Object.entries(result.faults).map(([k, n]) => `${k} ${n}`).join(', ') },
      { case: 'hardening', metric: 'soak: tasks ended terminal', value: terminal, unit: Object.entries(result.statuses).map(([k, n]) => `${k} ${n}`).join(', '), goal: '100' },
      { case: 'hardening', metric: 'soak: failed/cancelled without a reason', value: result.withoutReason, unit: '', goal: '0' },
      { case: 'hardening', metric: 'soak: stopped at the 30 s deadline', value: result.stoppedAtDeadline, unit: 'tasks' },
      { case: 'hardening', metric: 'soak: history records complete', value: result.historyRecords, unit: 'records', goal: '100' },
      { case: 'hardening', metric: 'soak: lost records', value: result.lostRecords, unit: '', goal: '0' },
      { case: 'hardening', metric: 'soak: damaged history files', value: result.damagedFiles, unit: '', goal: '0' },
      { case: 'hardening', metric: 'soak: leaked device locks', value: result.leakedLocks, unit: '', goal: '0' },
      { case: 'hardening', metric: 'soak: adb streams left open on the phone', value: result.openAdbStreams, unit: '', goal: '0' },
      { case: 'hardening', metric: 'soak: next task after the soak completed', value: result.nextTaskStatus === 'completed' ? 1 : 0, unit: `(${result.nextTaskStatus})`, goal: '1' },
      { case: 'hardening', metric: 'soak: RSS before', value: before / MiB, unit: 'MiB' },
      { case: 'hardening', metric: 'soak: RSS after (gc)', value: after / MiB, unit: 'MiB' },
    ];
    for (const [reason, count] of Object.entries(result.reasons)) {
      rows.push({ case: 'hardening', metric: `  soak reason: ${reason.slice(0, 110)}`, value: count, unit: 'tasks' });
    }
    return rows;
  } finally {
    await app.close();
    await harness.stop();
    await removeHome(app.home);
  }
}

async function crashRows(): Promise<BenchRow[]> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'amc-crash-'));
  try {
    const result = await runCrashSafety(home, KILLS);
    return [
      { case: 'hardening', metric: 'crash: kill -9 rounds mid-write', value: result.kills, unit: 'kills', goal: '50' },
      { case: 'hardening', metric: 'crash: events acknowledged before the kills', value: result.acknowledgedEvents, unit: 'events' },
      { case: 'hardening', metric: 'crash: acknowledged events lost', value: result.lostRecords, unit: '', goal: '0' },
      { case: 'hardening', metric: 'crash: in-flight events kept anyway', value: result.unacknowledgedEventsKept, unit: `(<= ${KILLS})` },
      { case: 'hardening', metric: 'crash: kills after which a file did not load', value: result.unloadableAfterKill, unit: '', goal: '0' },
      { case: 'hardening', metric: 'crash: settings not the last or in-flight save', value: result.settingsNotLastSave, unit: '', goal: '0' },
    ];
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

export default {
  name: 'hardening',
  async run(): Promise<BenchRow[]> {
    return [...(await fuzzRows()), ...(await soakRows()), ...(await crashRows())];
  },
} satisfies BenchCase;
