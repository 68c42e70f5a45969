// amc eval: the whole task suite with the scripted model (the loopback fake answering instantly through the real
// SDK) on demo phones the suite starts itself, sequentially and in parallel. With an instant model, the time is
// the host's: phones, adb, Scenes, screenshots (rendered by the phone, resized by the host: most of the CPU), the
// runner, and the suite's own seeding and judging. The scripted model answers from a thread of its own (a real one
// answers from elsewhere); the demo phones run in this process's main thread, as `amc eval` starts them.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { AdbClient } from '../../src/core/device/adb-client';
import type { RuntimeConfig } from '../../src/core/runtime/config';
import { defaultSettings, mergeSettings, SettingsSchema } from '../../src/shared/settings';
import { runSuite } from '../../src/eval/run-suite';
import { PHONE_TASKS } from '../../src/eval/tasks/index';
import { startAdbHarness } from '../../test/support/adb-harness';
import { CLOSE, NEW_RUN, type NewRun, type ScriptedModelAddress } from '../scripted-model-thread';
import { median, type BenchCase, type BenchRow } from '../types';

export function configFor(model: ScriptedModelAddress, sendScreenshot: boolean): RuntimeConfig {
  return {
    settings: SettingsSchema.parse(
      mergeSettings(defaultSettings(), {
        aiPlanner: { enabled: true, provider: 'anthropic', transport: 'direct', sendScreenshot },
        anthropic: { baseURL: model.baseURL },
      }),
    ),
    secrets: { ANTHROPIC_API_KEY: model.apiKey },
    envOverrides: [],
  };
}

/** The scripted model on its thread; `newRun` resets its script between suite runs. */
export async function startScriptedModel() {
  const worker = new Worker(new URL('../scripted-model-thread.mjs', import.meta.url));
  const next = () => new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const address = (await next()) as ScriptedModelAddress;
  return {
    address,
    /** Forgets the last run's conversations; `answerDelayMs` holds each answer back as a real model's inference does. */
    async newRun(answerDelayMs = 0) {
      const done = next();
      worker.postMessage({ kind: NEW_RUN, answerDelayMs } satisfies NewRun);
      await done;
    },
    async close() {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage(CLOSE);
      await exited;
    },
  };
}

/** CPU seconds of this process's main thread alone (Linux /proc; without the model's thread or libvips' and libuv's). */
function mainThreadCpuSeconds(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}
/** Linux's USER_HZ: /proc reports CPU time in these. */
const CLOCK_TICKS_PER_SECOND = 100;

export default {
  name: 'eval',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const harness = await startAdbHarness({ profile: 'instant' });
    const model = await startScriptedModel();
    try {
      const adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
      // The default (a screenshot every turn, as a real model gets) and the Scene alone, which shows the host's own share.
      const variants = [
        { label: 'screenshots', sendScreenshot: true, parallels: [1, 2, 3] },
        { label: 'Scene only', sendScreenshot: false, parallels: [1, 2] },
      ];
      for (const variant of variants) {
        const walls = new Map<number, number>();
        const taskWalls = new Map<number, number>();
        for (const parallel of variant.parallels) {
          await model.newRun();
          const cpuBefore = process.cpuUsage();
          const start = performance.now();
          // The first progress report comes when the first task starts: every phone has started by then.
          let phonesReady: { at: number; mainCpu: number } | undefined;
          const onProgress = () => void (phonesReady ??= { at: performance.now(), mainCpu: mainThreadCpuSeconds() });
          const attempts = await runSuite({ config: configFor(model.address, variant.sendScreenshot), adb, tasks: PHONE_TASKS, parallel, repeat: 1, onProgress });
          const end = performance.now();
          const wall = end - start;
          const tasksWall = end - phonesReady!.at;
          const mainCpuMs = (mainThreadCpuSeconds() - phonesReady!.mainCpu) * 1000;
          const cpu = process.cpuUsage(cpuBefore);
          const cpuMs = (cpu.user + cpu.system) / 1000;
          walls.set(parallel, wall);
          taskWalls.set(parallel, tasksWall);
          const passed = attempts.filter((attempt) => attempt.success).length;
          const metric = (what: string) => `${variant.label}: ${what}`;
          rows.push({ case: 'eval', metric: metric(`suite wall time, --parallel ${parallel} (${passed}/${attempts.length} passed)`), value: wall / 1000, unit: 's' });
          // The suite's fixed cost: starting its phones and connecting them to adb.
          rows.push({ case: 'eval', metric: metric(`of which the phones' start-up (adb connect included), --parallel ${parallel}`), value: phonesReady!.at - start, unit: 'ms' });
          rows.push({ case: 'eval', metric: metric(`of which the tasks (from the first task's start), --parallel ${parallel}`), value: tasksWall / 1000, unit: 's' });
          // What the wall time is made of: CPU of this process (host, demo phones, fake model, image threads) over the
          // wall time. Near 1 sequentially; how far below the core count it stays in parallel is what serialises.
          rows.push({ case: 'eval', metric: metric(`cores busy on average (process CPU ${(cpuMs / 1000).toFixed(1)} s / wall), --parallel ${parallel}`), value: cpuMs / wall, unit: '' });
          // The main thread (runner, adb client, SDK, perception, the phones) during the tasks: near 1 it is what limits --parallel.
          rows.push({ case: 'eval', metric: metric(`main thread busy during the tasks (its CPU / tasks wall), --parallel ${parallel}`), value: mainCpuMs / tasksWall, unit: '' });
          if (parallel > 1) {
            rows.push({
              case: 'eval',
              metric: metric(`speed-up of --parallel ${parallel} over sequential`),
              value: walls.get(1)! / wall,
              unit: 'x',
              ...(parallel === 2 && { goal: '>= 1.6x on 2 cores' }),
            });
            rows.push({ case: 'eval', metric: metric(`speed-up of --parallel ${parallel} over sequential, tasks alone (phones' start-up left out)`), value: taskWalls.get(1)! / tasksWall, unit: 'x' });
          } else {
            const taskMs = attempts.map((attempt) => attempt.record.timings.totalMs);
            rows.push({ case: 'eval', metric: metric('per task: host overhead around the task (seed + judge), median'), value: median(attempts.map((a) => a.hostMs)), unit: 'ms' });
            rows.push({ case: 'eval', metric: metric('per task: task time with an instant model, median'), value: median(taskMs), unit: 'ms' });
            rows.push({ case: 'eval', metric: metric('per turn: task time / turns, median over tasks'), value: median(taskMs.map((ms, i) => ms / attempts[i]!.record.steps.length)), unit: 'ms' });
            const turns = attempts.reduce((sum, attempt) => sum + attempt.record.steps.length, 0);
            rows.push({ case: 'eval', metric: metric('per turn: process CPU (host + demo phone + fake model)'), value: cpuMs / turns, unit: 'ms' });
          }
        }
      }
      // Wall times mean little on a machine others load: say how loaded it was.
      rows.push({ case: 'eval', metric: `machine load average (1 min) at the end, ${os.cpus().length} cores`, value: os.loadavg()[0]!, unit: '' });
    } finally {
      await model.close();
      await harness.stop();
    }
    return rows;
  },
} satisfies BenchCase;
