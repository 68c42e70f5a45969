// Crash safety (short): history and settings written by a process killed with SIGKILL at random moments.
// The hardening bench runs fifty kills.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCrashSafety } from '../../support/crash-safety';

let home: string | undefined;
afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

describe('crash safety', () => {
  it('Scenario: Killed mid-write, every file still loads and at most the last event is lost', async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'amc-crash-'));
    const result = await runCrashSafety(home, 10);
    console.log(`crash safety: ${JSON.stringify(result)}`);
    expect(result.acknowledgedEvents).toBeGreaterThan(0);
    expect(result).toMatchObject({ kills: 10, lostRecords: 0, unloadableAfterKill: 0, settingsNotLastSave: 0 });
    expect(result.unacknowledgedEventsKept).toBeLessThanOrEqual(10);
  }, 300_000);
});
