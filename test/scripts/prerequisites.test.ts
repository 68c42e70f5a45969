// `npm test`'s first step, as a newcomer meets it: on a machine without one of the tools the tests drive, it names
// the tool and the apt-get line before anything else runs.
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const which = (tool: string) => execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();

describe('npm test prerequisites', () => {
  it('Scenario: npm test names a missing ffmpeg and how to install it', async () => {
    // A PATH with adb and redis-server only (no ffmpeg, and no node: nothing past the check could run).
    const bin = await mkdtemp(path.join(tmpdir(), 'amc-prereq-'));
    try {
      for (const tool of ['adb', 'redis-server']) await symlink(which(tool), path.join(bin, tool));
      const result = spawnSync(process.execPath, ['scripts/test.mjs'], { encoding: 'utf8', env: { PATH: bin, HOME: process.env.HOME }, timeout: 30_000 });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/✗ missing: ffmpeg/);
      expect(result.stderr).toMatch(/sudo apt-get install -y (\S+ )*ffmpeg/);
      expect(result.stderr).not.toMatch(/missing: adb|missing: redis-server/);
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  }, 60_000);
});
