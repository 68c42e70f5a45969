// Fault soak (short): tasks on the virtual phone with a fault injected into each, through the real app, adb
// server and phone. The hardening bench runs the same soak with a hundred tasks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { runFaultSoak, SOAK_FAULTS } from '../support/fault-soak';
import { isolatedEnv, removeHome, startTestApp, type TestApp } from './app-fixture';

let harness: AdbHarness;
let app: TestApp;

beforeAll(async () => {
  harness = await startAdbHarness();
  app = await startTestApp({ env: isolatedEnv(harness.env) });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
});

describe('fault soak', () => {
  it('Scenario: Every task under a fault ends with a reason and history loses nothing', async () => {
    const result = await runFaultSoak(app, harness, 15);
    console.log(`fault soak: ${JSON.stringify(result)}`);
    expect(Object.keys(result.faults).sort()).toEqual([...SOAK_FAULTS].sort());
    const terminal = (result.statuses.completed ?? 0) + (result.statuses.failed ?? 0) + (result.statuses.cancelled ?? 0);
    expect(terminal).toBe(15);
    expect(result.withoutReason).toBe(0);
    expect(result).toMatchObject({ historyRecords: 15, lostRecords: 0, damagedFiles: 0, leakedLocks: 0, openAdbStreams: 0, nextTaskStatus: 'completed' });
  }, 600_000);
});
