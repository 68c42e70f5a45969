import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { screenshotNameProblem } from '../../shared/flow';
import type { AdbClient } from '../device/adb-client';
import { pngFromScreencap } from '../perception/screenshot';
import type { FlowScreenshots } from './replay-options';
import { screencap } from '../device/android/screencap';

/**
 * A flow run's `screenshot` steps (Maestro's takeScreenshot): the phone's own `screencap -p` PNG, at full resolution
 * and not re-encoded, written as NAME.png inside `folder`. The picture goes to that file only, never to the task's
 * events or history (seed D5: only the planner sees a screenshot).
 */
export function createFlowScreenshots(folder: string, phone: () => Promise<{ adb: AdbClient; serial: string }>): FlowScreenshots {
  return {
    async save(name, signal) {
      // Checked again here: a `${VAR}` in the name is filled only as the step runs.
      const problem = screenshotNameProblem(name);
      if (problem) throw Object.assign(new Error(problem.text), { said: problem.said });
      const root = path.resolve(folder);
      const file = path.resolve(root, /\.png$/i.test(name) ? name : `${name}.png`);
      if (!file.startsWith(root + path.sep)) throw new Error(`"${name}" is not a file inside the output folder ${root}`);
      const { adb, serial } = await phone();
      const png = pngFromScreencap(await adb.shellBytes(serial, screencap.png(), { timeoutMs: 20_000, signal }));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, png);
      return `saved ${file} (${png.readUInt32BE(16)}×${png.readUInt32BE(20)})`;
    },
  };
}
