// amc eval: the whole task suite with the scripted model (the loopback fake answering instantly through the real
// SDK) on demo phones the suite starts itself, sequentially and in parallel. With an instant model, the time is
// the host's: phones, adb, Scenes, screenshots (rendered by the phone, resized by the host: most of the CPU), the
// runner, and the suite's own seeding and judging.
import os from 'node:os';
import { AdbClient } from '../../src/main/device/adb-client';
import type { RuntimeConfig } from '../../src/main/runtime/config';
import { defaultSettings, mergeSettings, SettingsSchema } from '../../src/shared/settings';
import { runSuite } from '../../src/eval/run-suite';
import { PHONE_TASKS } from '../../src/eval/tasks/index';
import { startAdbHarness } from '../../test/support/adb-harness';
import { startProviderFake, type ProviderFake } from '../../test/fakes/index';
import { suitePolicy } from '../../test/fakes/suite-agent';
import { median, type BenchCase, type BenchRow } from '../types';

function configFor(fake: ProviderFake, sendScreenshot: boolean): RuntimeConfig {
  return {
    settings: SettingsSchema.parse(
      mergeSettings(defaultSettings(), {
        aiPlanner: { enabled: true, provider: fake.provider, transport: 'direct', sendScreenshot },
        [fake.provider]: { baseURL: fake.baseURL },
      }),
    ),
    secrets: { ANTHROPIC_API_KEY: fake.apiKey },
    envOverrides: [],
  };
}

export default {
  name: 'eval',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const harness = await startAdbHarness({ profile: 'instant' });
    let policy = suitePolicy();
    const fake = await startProviderFake('anthropic', (turn) => policy(turn));
    try {
      const adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
      // The default (a screenshot every turn, as a real model gets) and the Scene alone, which shows the host's own share.
      const variants = [
        { label: 'screenshots', sendScreenshot: true, parallels: [1, 2, 3] },
        { label: 'Scene only', sendScreenshot: false, parallels: [1, 2] },
      ];
      for (const variant of variants) {
        const walls = new Map<number, number>();
        for (const parallel of variant.parallels) {
          policy = suitePolicy();
          const cpuBefore = process.cpuUsage();
          const start = performance.now();
          const attempts = await runSuite({ config: configFor(fake, variant.sendScreenshot), adb, tasks: PHONE_TASKS, parallel, repeat: 1 });
          const wall = performance.now() - start;
          const cpu = process.cpuUsage(cpuBefore);
          const cpuMs = (cpu.user + cpu.system) / 1000;
          walls.set(parallel, wall);
          const passed = attempts.filter((attempt) => attempt.success).length;
          const metric = (what: string) => `${variant.label}: ${what}`;
          rows.push({ case: 'eval', metric: metric(`suite wall time, --parallel ${parallel} (${passed}/${attempts.length} passed)`), value: wall / 1000, unit: 's' });
          // What the wall time is made of: CPU of this process (host, demo phones, fake model, image threads) over the
          // wall time. Near 1 sequentially; how far below the core count it stays in parallel is what serialises.
          rows.push({ case: 'eval', metric: metric(`cores busy on average (process CPU ${(cpuMs / 1000).toFixed(1)} s / wall), --parallel ${parallel}`), value: cpuMs / wall, unit: '' });
          if (parallel > 1) {
            rows.push({
              case: 'eval',
              metric: metric(`speed-up of --parallel ${parallel} over sequential`),
              value: walls.get(1)! / wall,
              unit: 'x',
              ...(parallel === 2 && { goal: '>= 1.6x on 2 cores' }),
            });
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
      await fake.close();
      await harness.stop();
    }
    return rows;
  },
} satisfies BenchCase;
