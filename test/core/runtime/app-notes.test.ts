// Notes per app, end to end: TaskRunner + AI planner + the real SDKs (against the loopback provider fakes) + the
// real adb server, adbkit, Observer and Executor against the demo phone, with the notes kept in a real folder.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, mergeSettings, SettingsSchema } from '../../../src/shared/settings';
import { AdbClient } from '../../../src/core/device/adb-client';
import { Observer } from '../../../src/core/perception/observer';
import { Executor } from '../../../src/core/tools/executor';
import { TaskRunner } from '../../../src/core/runtime/task-runner';
import { presetSupervisor } from '../../../src/core/runtime/supervisor';
import { buildPlanner } from '../../../src/core/runtime/build-planner';
import type { RuntimeConfig } from '../../../src/core/runtime/config';
import { createNotesStore, type NotesStore } from '../../../src/core/storage/notes-store';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { finish, startProviderFake, type FakePolicy, type FakeProvider, type ProviderFake } from '../../fakes/index';
import { SUITE_SCRIPTS, stepsPolicy } from '../../fakes/suite-agent';
import { taskById } from '../../../src/eval/tasks/index';

const SETTINGS_APP = 'com.android.settings';

let harness: AdbHarness;
let adb: AdbClient;
const fakes = new Map<FakeProvider, ProviderFake>();
let policy: FakePolicy = () => finish(true, 'idle');
let home: string;
let notes: NotesStore;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  for (const provider of ['anthropic', 'openai'] as const) fakes.set(provider, await startProviderFake(provider, (turn) => policy(turn)));
}, 60_000);

afterAll(async () => {
  await Promise.all([...fakes.values()].map((fake) => fake.close()));
  await harness?.stop();
});

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-notes-'));
  notes = createNotesStore(home);
  return () => rm(home, { recursive: true, force: true });
});

function configFor(provider: FakeProvider, appNotes: boolean): RuntimeConfig {
  const fake = fakes.get(provider)!;
  return {
    settings: SettingsSchema.parse(
      mergeSettings(defaultSettings(), { aiPlanner: { enabled: true, provider, transport: 'direct', sendScreenshot: false, appNotes }, [provider]: { baseURL: fake.baseURL } }),
    ),
    secrets: { [provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY']: fake.apiKey },
    envOverrides: [],
  };
}

const runnerFor = (provider: FakeProvider, appNotes = true) =>
  new TaskRunner({
    observer: new Observer(adb, { screenshot: false }),
    executor: new Executor(adb),
    plannerSource: async () => buildPlanner(configFor(provider, appNotes)),
    supervisor: presetSupervisor({ allowActions: true }),
    appNotes: notes,
  });

/** Runs one task of the suite with its script, from its seed. */
async function runSuiteTask(runner: TaskRunner, id: string) {
  const task = taskById(id);
  await harness.control('/reset', { body: task.seed ?? {} });
  policy = stepsPolicy(SUITE_SCRIPTS[id]!());
  const record = await runner.run({ serial: harness.serial, goal: task.goal });
  expect(record.status).toBe('completed');
  return record;
}

/** Every text of a request body as the provider received it (Anthropic content blocks, OpenAI message contents). */
function textsOf(body: unknown): string[] {
  if (typeof body === 'string') return [body];
  if (Array.isArray(body)) return body.flatMap(textsOf);
  if (body && typeof body === 'object') return Object.values(body).flatMap(textsOf);
  return [];
}

/** The turn texts of the requests sent since `from`, as the fake model read them off the wire. */
const turnTextsSince = (provider: FakeProvider, from: number) =>
  fakes.get(provider)!.bodies().slice(from).map((body) => textsOf(body).find((text) => text.startsWith('<goal>')) ?? '');

describe.each(['anthropic', 'openai'] as const)('notes per app over %s direct', (provider) => {
  it('Scenario: A successful run leaves a note of its route in the app', async () => {
    const record = await runSuiteTask(runnerFor(provider), 'settings-wifi-off');
    expect(await notes.list()).toEqual([
      expect.objectContaining({ app: SETTINGS_APP, goal: 'Turn off Wi-Fi.', route: 'Settings > Network & internet > Wi-Fi', taskId: record.id, editedAt: null }),
    ]);
  });

  it("Scenario: A run's note is kept before its end is announced", async () => {
    const runner = runnerFor(provider);
    let atTheEnd: Promise<unknown[]> | undefined;
    // What a window does on the end event (list the notes, or forget the run's at once) sees the note already.
    runner.on((event) => {
      if (event.type === 'task.finished') atTheEnd = notes.list();
    });
    const record = await runSuiteTask(runner, 'settings-wifi-off');
    expect(await atTheEnd).toEqual([expect.objectContaining({ taskId: record.id })]);
  });

  it('Scenario: The next task in that app receives the note', async () => {
    const runner = runnerFor(provider);
    const taught = await runSuiteTask(runner, 'settings-wifi-off');
    const sent = fakes.get(provider)!.bodies().length;
    const next = await runSuiteTask(runner, 'settings-airplane-mode-on');
    const texts = turnTextsSince(provider, sent);
    // Turn 1 is on the home screen (no notes of the launcher); once Settings is in front, its note travels.
    expect(texts[0]).not.toContain('<app_notes>');
    const inSettings = texts.slice(1);
    expect(inSettings.length).toBeGreaterThan(0);
    for (const text of inSettings) {
      expect(text).toContain('<app_notes>');
      expect(text).toContain('- goal:"Turn off Wi-Fi." route:"Settings > Network & internet > Wi-Fi"');
      expect(text.match(/<app_notes>/g)).toHaveLength(1);
    }
    // The second run taught its own note; the first one's is still there.
    expect((await notes.notesFor(SETTINGS_APP)).map((note) => note.taskId)).toEqual([next.id, taught.id]);
  });

  it('Scenario: Marking a run as wrong removes what it taught', async () => {
    const runner = runnerFor(provider);
    const wrong = await runSuiteTask(runner, 'settings-wifi-off');
    const right = await runSuiteTask(runner, 'settings-airplane-mode-on');
    const removed = await notes.forgetTask(wrong.id);
    expect(removed.map((note) => note.route)).toEqual(['Settings > Network & internet > Wi-Fi']);
    expect((await notes.list()).map((note) => note.taskId)).toEqual([right.id]);
    // The next task no longer hears of the removed route.
    const sent = fakes.get(provider)!.bodies().length;
    await runSuiteTask(runner, 'settings-dark-theme-on');
    const texts = turnTextsSince(provider, sent).slice(1);
    expect(texts.join('\n')).toContain('route:"Settings > Network & internet > Airplane mode"');
    expect(texts.join('\n')).not.toContain('Wi-Fi"');
  });

  it('Scenario: With learning notes off nothing is learned or sent', async () => {
    await runSuiteTask(runnerFor(provider), 'settings-wifi-off');
    const sent = fakes.get(provider)!.bodies().length;
    await runSuiteTask(runnerFor(provider, false), 'settings-airplane-mode-on');
    expect(turnTextsSince(provider, sent).join('\n')).not.toContain('<app_notes>');
    expect(await notes.list()).toHaveLength(1);
  });
});
