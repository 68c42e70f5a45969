import { describe, expect, it } from 'vitest';
import { warmUpFirstTurn } from '../../src/app/first-turn-warm-up';
import { buildPlanner } from '../../src/core/runtime/build-planner';
import type { RuntimeConfig } from '../../src/core/runtime/config';
import { pngWorkerRunning } from '../../src/core/perception/png-worker';
import { defaultSettings, mergeSettings, SettingsSchema, type SettingsPatch } from '../../src/shared/settings';
import { FAKE_ANTHROPIC_KEY } from '../fakes/index';

// This file's module state is its own (Vitest isolates test files): the PNG worker starts here or not at all, so the
// cases that must not start it run before the one that must.

function config(patch: SettingsPatch): RuntimeConfig {
  return { settings: SettingsSchema.parse(mergeSettings(defaultSettings(), patch)), secrets: { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY }, envOverrides: [] };
}

const USB_SERIAL = 'R58M123ABC';
const NETWORK_SERIAL = '192.168.1.20:5555';
const directAnthropic = (sendScreenshot: boolean) => config({ aiPlanner: { enabled: true, transport: 'direct', provider: 'anthropic', sendScreenshot } });

describe('warming up the first turn of a worker', () => {
  it('Scenario: A worker readies the screenshot pipeline of its phones and its planner before its first job', async () => {
    // No screenshot goes to the planner: nothing to ready for screenshots, whatever the phones.
    const noScreenshots = directAnthropic(false);
    await warmUpFirstTurn(noScreenshots, buildPlanner(noScreenshots), [NETWORK_SERIAL]);
    expect(pngWorkerRunning()).toBe(false);
    // The stub planner takes no screenshot either.
    const stub = config({ aiPlanner: { enabled: false } });
    await warmUpFirstTurn(stub, buildPlanner(stub), [NETWORK_SERIAL]);
    expect(pngWorkerRunning()).toBe(false);

    const withScreenshots = directAnthropic(true);
    // A USB phone's screenshots come raw: no PNG worker for it.
    await warmUpFirstTurn(withScreenshots, buildPlanner(withScreenshots), [USB_SERIAL]);
    expect(pngWorkerRunning()).toBe(false);
    // A network phone's come as PNG: the worker is started before any screenshot is taken.
    await warmUpFirstTurn(withScreenshots, buildPlanner(withScreenshots), [USB_SERIAL, NETWORK_SERIAL]);
    expect(pngWorkerRunning()).toBe(true);
  });
});
