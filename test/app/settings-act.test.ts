// Every setting of the catalog changes what it claims to change. The round-trip test (test/renderer/
// settings-round-trip.test.tsx) proves a value arrives in the options the runtime builds; this one proves it acts:
// per setting, the behaviour it drives, seen from outside: what crosses the wire to the loopback model servers (real
// SDKs), how a task on the demo phone (real adb server, adbkit) ends, what the person is asked, what the mirror shows,
// how text is typed. The table is keyed by every catalog path, so a new setting does not compile until it says how it
// acts, and the first test fails if the catalog and the table ever differ.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adbServerOptions } from '../../src/app/device-service';
import { phoneHelpersFor } from '../../src/app/phone-typing';
import { AdbClient } from '../../src/core/device/adb-client';
import { Observer } from '../../src/core/perception/observer';
import { buildPlanner } from '../../src/core/runtime/build-planner';
import { ENGLISH } from '../../src/shared/i18n/translate';
import type { RuntimeConfig } from '../../src/core/runtime/config';
import { noPersonPresent, presetSupervisor, type SupervisorPort, type SupervisorRequest } from '../../src/core/runtime/supervisor';
import type { AppNotesPort } from '../../src/core/runtime/notes/app-notes-port';
import { createNotesStore } from '../../src/core/storage/notes-store';
import { createTaskStore } from '../../src/core/storage/task-store';
import { planCacheLearner, withPlanCache } from '../../src/core/flows/plan-cache';
import { createPlanCacheStore } from '../../src/core/storage/plan-cache-store';
import { readFleetView } from '../../src/app/fleet-view';
import { jobSupervisor, planCacheForJob } from '../../src/cli/fleet-job-runner';
import { deviceGroupsOf, phonesOfLaunch } from '../../src/shared/device-groups';
import { TaskRunner } from '../../src/core/runtime/task-runner';
import { Executor } from '../../src/core/tools/executor';
import type { Scene } from '../../src/shared/scene';
import { defaultSettings, mergeSettings, SettingsSchema, type Settings, type SettingsPatch } from '../../src/shared/settings';
import { SETTINGS_CATALOG, type CatalogEntry } from '../../src/shared/settings-catalog';
import { chooseLanguage } from '../../src/shared/i18n/languages';
import type { TaskEvent, TaskRecord } from '../../src/shared/task';
import type { ConfiguredPlanner } from '../../src/core/runtime/planner';
import { finish, startProviderFake, type FakePolicy, type FakeProvider, type FakeReply, type FakeTurn, type ProviderFake } from '../fakes/index';
import { startFakeServer, type FakeServer } from '../fakes/fake-http';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { writeHelperStandIn } from '../support/helper-stand-in';
import { isolatedEnv, removeHome, startTestApp } from './app-fixture';

type Path = CatalogEntry['path'];

let harness: AdbHarness;
let adb: AdbClient;
let dir: string;
let yadbFile: string;
let scrcpyFile: string;
const fakes = new Map<FakeProvider, ProviderFake>();
/** What the model answers this turn; the turns the fakes served for the last task are kept in `turns`. */
let policy: FakePolicy = () => finish(true, 'done');
let turns: FakeTurn[] = [];

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  dir = await mkdtemp(path.join(tmpdir(), 'amc-settings-act-'));
  yadbFile = await writeHelperStandIn('yadb', path.join(dir, 'yadb'));
  scrcpyFile = await writeHelperStandIn('scrcpy-server', path.join(dir, 'scrcpy-server'));
  for (const provider of ['anthropic', 'openai'] as const) {
    fakes.set(provider, await startProviderFake(provider, (turn) => (turns.push(turn), policy(turn))));
  }
}, 60_000);

afterAll(async () => {
  await Promise.all([...fakes.values()].map((fake) => fake.close()));
  await harness?.stop();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  turns = [];
  policy = () => finish(true, 'done');
  await harness.reset();
});

const fake = (provider: FakeProvider) => fakes.get(provider)!;

/** The AI planner on, talking to the Anthropic fake directly, with `patch` over it. */
function configWith(patch: SettingsPatch = {}, secrets: RuntimeConfig['secrets'] = {}): RuntimeConfig {
  const base: SettingsPatch = {
    aiPlanner: { enabled: true, provider: 'anthropic', transport: 'direct', thinkingBudgetTokens: null },
    anthropic: { baseURL: fake('anthropic').baseURL },
    openai: { baseURL: fake('openai').baseURL },
  };
  const merged = SettingsSchema.parse(mergeSettings(SettingsSchema.parse(mergeSettings(defaultSettings(), base)), patch));
  return { settings: merged, secrets: { ANTHROPIC_API_KEY: fake('anthropic').apiKey, OPENAI_API_KEY: fake('openai').apiKey, ...secrets }, envOverrides: [] };
}

/**
 * Runs one task on the demo phone as the app wires it (the planner built from the configuration, the screenshot
 * size and the scene budget its policies carry) and returns its record.
 */
async function runTask(
  config: RuntimeConfig,
  options: { goal?: string; supervisor?: SupervisorPort; now?: () => number; appNotes?: AppNotesPort; planner?: ConfiguredPlanner; onEvent?: (event: TaskEvent) => void } = {},
): Promise<TaskRecord> {
  turns = [];
  const planner = options.planner ?? buildPlanner(config);
  const runner = new TaskRunner({
    // No screenshot of its own: the runner tells each look whether to take one, and how big.
    observer: new Observer(adb, { screenshot: false }),
    executor: new Executor(adb),
    supervisor: options.supervisor ?? noPersonPresent,
    ...(options.now && { now: options.now }),
    ...(options.appNotes && { appNotes: options.appNotes }),
  });
  if (options.onEvent) runner.on(options.onEvent);
  return runner.run({ serial: harness.serial, goal: options.goal ?? 'Open Settings' }, { planner });
}

const openSettings: FakePolicy = () => (turnOfTask() === 0 ? { kind: 'call', tool: 'launch_app', args: { app: 'Settings' } } : finish(true, 'Settings is open'));

/** A history and plan cache holding one model run of "Open Settings" (verified: Settings came to the front). */
async function openSettingsCached() {
  const history = createTaskStore(await mkdtemp(path.join(dir, 'history-')));
  const cache = createPlanCacheStore(await mkdtemp(path.join(dir, 'cache-')));
  const appends: Promise<void>[] = [];
  policy = openSettings;
  const first = await runTask(configWith(), { goal: 'Open Settings', onEvent: (event) => appends.push(history.append(event)) });
  await Promise.all(appends);
  expect(first.status).toBe('completed');
  expect(await planCacheLearner(cache).consider(first)).toBe(true);
  return { cache, history };
}

/** The model calls a task of "Open Settings" makes with `planner`, on a reset phone. */
async function modelCallsWith(config: RuntimeConfig, planner: ConfiguredPlanner): Promise<number> {
  await harness.reset();
  policy = openSettings;
  expect((await runTask(config, { goal: 'Open Settings', planner })).status).toBe('completed');
  return turns.length;
}

/** This task's turn the model is answering, from 0 (the fakes' own count runs over every task). */
const turnOfTask = () => turns.length - 1;

/** A model that opens Settings and Notes by turns for ever: every turn acts, none repeats. */
const wander: FakePolicy = () => ({ kind: 'call', tool: 'launch_app', args: { app: turnOfTask() % 2 === 0 ? 'Settings' : 'Notes' } });

/** A model that opens Settings again and again: the screen stops changing after the first. */
const openSettingsForEver: FakePolicy = () => ({ kind: 'call', tool: 'launch_app', args: { app: 'Settings' } });

/** A recording server standing in for a provider or control plane at another address; it answers 500. */
async function recordingServer(): Promise<FakeServer> {
  return startFakeServer(async () => ({ status: 500, body: { error: { type: 'api_error', message: 'recording only' } } }));
}

async function withServer<T>(work: (server: FakeServer) => Promise<T>): Promise<T> {
  const server = await recordingServer();
  try {
    return await work(server);
  } finally {
    await server.close();
  }
}

/** The long edge of the image the newest Anthropic request carried. */
async function imageLongEdge(): Promise<number> {
  type Block = { type: string; source?: { data: string } };
  const body = fake('anthropic').bodies().at(-1) as { messages: { content: string | Block[] }[] };
  const image = body.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content)).findLast((block) => block.type === 'image');
  const meta = await sharp(Buffer.from(image!.source!.data, 'base64')).metadata();
  return Math.max(meta.width!, meta.height!);
}

/** The newest request's body of `provider`'s fake. */
const lastBody = (provider: FakeProvider) => fake(provider).bodies().at(-1) as Record<string, unknown>;

/** How many executed steps a record has. */
const acted = (record: TaskRecord) => record.steps.filter((step) => step.outcome).length;

/** A port where something other than an adb server answers. */
async function notAdbPort(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return { port: (server.address() as AddressInfo).port, close };
}

/** The serials the adb server at the settings' host and port lists, as the app's device list reads them. */
async function phonesListed(settings: Settings): Promise<string[]> {
  const client = await AdbClient.create(adbServerOptions(settings, harness.env));
  return (await client.listDevices()).map((device) => device.serial);
}

/** Types `text` into a new note with the app's typing for `settings`; returns the error, or null when typed. */
async function typeWith(settings: Settings, text: string, downloadUrl?: string): Promise<string | null> {
  const home = await mkdtemp(path.join(dir, 'home-'));
  const helpers = phoneHelpersFor({ adb: async () => adb, settings: async () => settings, home, downloadUrls: { yadb: downloadUrl ?? 'http://127.0.0.1:9/yadb' }, env: { AMC_PHONE_HELPERS_DIR: '' } });
  const executor = new Executor(adb, { initialBackoffMs: 20, typing: helpers.typing });
  const observer = new Observer(adb, { screenshot: false });
  const scene = async (): Promise<Scene> => (await observer.observe(harness.serial)).scene!;
  const run = async (name: string, args: Record<string, unknown>) => executor.execute({ name, args }, { serial: harness.serial, scene: await scene() });
  await run('launch_app', { app: 'Notes' });
  const newNote = (await scene()).elements.find((element) => element.text === 'New note' || element.desc === 'New note')!;
  await run('tap', { element_id: newNote.id });
  const body = (await scene()).elements.find((element) => element.resourceId === 'note_body')!;
  const outcome = await run('type_text', { element_id: body.id, text });
  return outcome.error ?? null;
}

const settingsWith = (patch: SettingsPatch): Settings => SettingsSchema.parse(mergeSettings(defaultSettings(), patch));

/** The mirror's status line facts with the app's Settings given as environment variables. */
async function mirrorStatusWith(env: NodeJS.ProcessEnv, until: (status: { source?: string | undefined; fallbackReason?: string | null | undefined }) => boolean) {
  const app = await startTestApp({ env: isolatedEnv(harness.env, env) });
  const stopViewing = app.app.events.subscribeFrames(() => undefined);
  try {
    await app.call('mirror.start', { serial: harness.serial, maxSize: 800 });
    return await app.waitForEvent('mirror.status', (status) => status.serial === harness.serial && until(status));
  } finally {
    stopViewing();
    await app.call('mirror.stop', {});
    await app.close();
    await removeHome(app.home);
  }
}

const recordingSupervisor = () => {
  const asked: SupervisorRequest[] = [];
  const allowAll = presetSupervisor({ allowActions: true });
  const supervisor: SupervisorPort = { ask: (request, options) => (asked.push(request), allowAll.ask(request, options)) };
  return { asked, supervisor };
};

const tapTheFirstElement: FakePolicy = (turn) =>
  turnOfTask() === 0 ? { kind: 'call', tool: 'tap', args: { element_id: turn.scene!.elements[0]!.id } } : finish(true, 'tapped');

/** Per setting: what it changes, checked by changing it. */
const ACTS: Record<Path, () => Promise<void>> = {
  'interface.language': async () => {
    // The window's language (the renderer's language store chooses the same way): the setting wins over the system's.
    const windowLanguage = (settings: Settings) => chooseLanguage(settings.interface.language, ['en-US']);
    expect(windowLanguage(settingsWith({ interface: { language: 'zh-CN' } }))).toBe('zh-CN');
    expect(windowLanguage(settingsWith({ interface: { language: 'system' } }))).toBe('en');
  },
  'aiPlanner.enabled': async () => {
    await runTask(configWith({ aiPlanner: { enabled: false } }));
    expect(turns).toHaveLength(0);
    await runTask(configWith({ aiPlanner: { enabled: true } }));
    expect(turns.length).toBeGreaterThan(0);
  },
  'aiPlanner.provider': async () => {
    await runTask(configWith({ aiPlanner: { provider: 'openai' } }));
    expect(turns.map((turn) => turn.provider)).toEqual(['openai']);
    await runTask(configWith({ aiPlanner: { provider: 'anthropic' } }));
    expect(turns.map((turn) => turn.provider)).toEqual(['anthropic']);
  },
  'aiPlanner.model': async () => {
    await runTask(configWith({ aiPlanner: { model: 'acts-model-7' } }));
    expect(lastBody('anthropic').model).toBe('acts-model-7');
  },
  'aiPlanner.transport': async () => {
    await withServer(async (controlPlane) => {
      const record = await runTask(configWith({ aiPlanner: { transport: 'cloud-proxy' }, controlPlane: { url: controlPlane.url } }, { CONTROL_PLANE_TOKEN: 'amc_acts_token' }));
      expect(record.status).toBe('failed');
      expect(controlPlane.requests.map((request) => request.path)).toContain('/v1/planner/decision');
      expect(turns).toHaveLength(0);
    });
  },
  'aiPlanner.timeoutSeconds': async () => {
    policy = () => ({ kind: 'hang' }) as FakeReply;
    const record = await runTask(configWith({ aiPlanner: { timeoutSeconds: 1 } }));
    expect(record.failureReason).toMatch(/did not answer within 1 s/);
  },
  'aiPlanner.thinkingBudgetTokens': async () => {
    await runTask(configWith({ aiPlanner: { thinkingBudgetTokens: 2048 } }));
    expect(lastBody('anthropic').thinking).toMatchObject({ type: 'enabled', budget_tokens: 2048 });
    await runTask(configWith({ aiPlanner: { thinkingBudgetTokens: null } }));
    expect(lastBody('anthropic').thinking).toBeUndefined();
  },
  'aiPlanner.maxSteps': async () => {
    policy = wander;
    const record = await runTask(configWith({ aiPlanner: { maxSteps: 2 } }));
    expect(acted(record)).toBe(2);
    expect(record.failureReason).toMatch(/maximum of 2 steps/);
  },
  'aiPlanner.sendScreenshot': async () => {
    await runTask(configWith({ aiPlanner: { sendScreenshot: false } }));
    expect(turns.at(-1)!.hasImage).toBe(false);
    await runTask(configWith({ aiPlanner: { sendScreenshot: true } }));
    expect(turns.at(-1)!.hasImage).toBe(true);
  },
  'aiPlanner.screenshotLongEdge': async () => {
    await runTask(configWith({ aiPlanner: { screenshotLongEdge: 512 } }));
    expect(await imageLongEdge()).toBe(512);
    await runTask(configWith({ aiPlanner: { screenshotLongEdge: 1024 } }));
    expect(await imageLongEdge()).toBe(1024);
  },
  'perception.sceneTokenBudget': async () => {
    // A long list of notes: a small budget leaves rows out of the Scene the model reads.
    const notes = Array.from({ length: 40 }, (_, index) => ({ title: `Shopping list ${index + 1}`, body: `Milk, eggs and bread for week ${index + 1}` }));
    const sceneSize = async (sceneTokenBudget: number) => {
      await harness.reset({ notes });
      policy = () => (turnOfTask() === 0 ? { kind: 'call', tool: 'launch_app', args: { app: 'Notes' } } : finish(true, 'seen'));
      await runTask(configWith({ perception: { sceneTokenBudget }, aiPlanner: { sendScreenshot: false } }));
      return JSON.stringify(turns.at(-1)!.scene).length;
    };
    expect(await sceneSize(500)).toBeLessThan(await sceneSize(20_000));
  },
  'secrets.ANTHROPIC_API_KEY': async () => {
    const refused = await runTask(configWith({}, { ANTHROPIC_API_KEY: 'sk-ant-wrong' }));
    expect(refused.failureReason).toMatch(/rejected the API key \(HTTP 401\)/);
    expect((await runTask(configWith())).status).toBe('completed');
  },
  'secrets.OPENAI_API_KEY': async () => {
    const refused = await runTask(configWith({ aiPlanner: { provider: 'openai' } }, { OPENAI_API_KEY: 'sk-openai-wrong' }));
    expect(refused.failureReason).toMatch(/rejected the API key \(HTTP 401\)/);
    expect((await runTask(configWith({ aiPlanner: { provider: 'openai' } }))).status).toBe('completed');
  },
  'anthropic.baseURL': async () => {
    await withServer(async (elsewhere) => {
      await runTask(configWith({ anthropic: { baseURL: elsewhere.url } }));
      expect(elsewhere.requests.length).toBeGreaterThan(0);
      expect(turns).toHaveLength(0);
    });
  },
  'openai.baseURL': async () => {
    await withServer(async (elsewhere) => {
      await runTask(configWith({ aiPlanner: { provider: 'openai' }, openai: { baseURL: `${elsewhere.url}/v1` } }));
      expect(elsewhere.requests.map((request) => request.path)).toContain('/v1/chat/completions');
      expect(turns).toHaveLength(0);
    });
  },
  'controlPlane.url': async () => {
    await withServer(async (first) => {
      await withServer(async (second) => {
        await runTask(configWith({ aiPlanner: { transport: 'cloud-proxy' }, controlPlane: { url: second.url } }, { CONTROL_PLANE_TOKEN: 'amc_acts_token' }));
        expect(second.requests.length).toBeGreaterThan(0);
        expect(first.requests).toHaveLength(0);
      });
    });
  },
  'secrets.CONTROL_PLANE_TOKEN': async () => {
    await withServer(async (controlPlane) => {
      await runTask(configWith({ aiPlanner: { transport: 'cloud-proxy' }, controlPlane: { url: controlPlane.url } }, { CONTROL_PLANE_TOKEN: 'amc_acts_token' }));
      expect(controlPlane.requests[0]!.headers.authorization).toBe('Bearer amc_acts_token');
    });
  },
  'adb.host': async () => {
    expect(await phonesListed(settingsWith({ adb: { host: 'localhost', port: harness.adbPort } }))).toContain(harness.serial);
    await expect(phonesListed(settingsWith({ adb: { host: '127.0.0.2', port: harness.adbPort } }))).rejects.toThrow(/127\.0\.0\.2/);
  },
  'adb.port': async () => {
    expect(await phonesListed(settingsWith({ adb: { host: '127.0.0.1', port: harness.adbPort } }))).toContain(harness.serial);
    const other = await notAdbPort();
    try {
      await expect(phonesListed(settingsWith({ adb: { host: '127.0.0.1', port: other.port } }))).rejects.toThrow(String(other.port));
    } finally {
      await other.close();
    }
  },
  'budget.maxTokens': async () => {
    policy = wander;
    const record = await runTask(configWith({ budget: { maxTokens: 1000 }, aiPlanner: { sendScreenshot: false } }));
    expect(record.failureReason).toMatch(/token budget reached: .* of 1,000 tokens/);
    expect(turns.length).toBeLessThanOrEqual(1);
  },
  'budget.maxCostCents': async () => {
    policy = wander;
    const record = await runTask(
      configWith({ aiPlanner: { model: 'acts-priced', sendScreenshot: false }, budget: { maxCostCents: 1, priceTable: 'acts-priced 10/10' } }),
    );
    expect(record.failureReason).toMatch(/cost budget reached: .* of \$0\.010 spent/);
  },
  'budget.maxMinutes': async () => {
    policy = wander;
    // A clock that runs a minute a look: the agent's time passes faster than any turn.
    let clock = Date.now();
    const record = await runTask(configWith({ budget: { maxMinutes: 2 }, aiPlanner: { sendScreenshot: false } }), { now: () => (clock += 60_000) });
    expect(record.failureReason).toMatch(/time budget reached: the agent worked .* of its 2 min/);
  },
  'budget.priceTable': async () => {
    const priced = await runTask(configWith({ aiPlanner: { model: 'acts-priced', sendScreenshot: false }, budget: { priceTable: 'acts-priced 2/8' } }));
    const usage = priced.usage!;
    expect(priced.costUsd).toBeCloseTo((usage.inputTokens * 2 + usage.outputTokens * 8) / 1_000_000, 10);
    const unpriced = await runTask(configWith({ aiPlanner: { model: 'acts-unpriced', sendScreenshot: false }, budget: { priceTable: 'acts-priced 2/8' } }));
    expect(unpriced.costUsd).toBeNull();
  },
  'supervision.confirmation': async () => {
    policy = tapTheFirstElement;
    const every = recordingSupervisor();
    await runTask(configWith({ supervision: { confirmation: 'every' } }), { supervisor: every.supervisor });
    expect(every.asked.map((request) => request.request.kind)).toContain('confirmation');
    await harness.reset();
    const off = recordingSupervisor();
    await runTask(configWith({ supervision: { confirmation: 'off' } }), { supervisor: off.supervisor });
    expect(off.asked).toEqual([]);
  },
  'supervision.loopWarnAfter': async () => {
    const firstWarning = async (loopWarnAfter: number) => {
      await harness.reset();
      policy = (turn) => (turnOfTask() < 4 ? openSettingsForEver(turn) : finish(true, 'stopped'));
      await runTask(configWith({ supervision: { loopWarnAfter, loopStopAfter: 10 }, aiPlanner: { sendScreenshot: false } }));
      const index = turns.findIndex((turn) => turn.allText.includes('Warning from the runtime: you are in a loop'));
      return index === -1 ? Infinity : index;
    };
    const early = await firstWarning(1);
    expect(early).toBeGreaterThan(0);
    expect(early).toBeLessThan(Infinity);
    expect(await firstWarning(3)).toBeGreaterThan(early);
  },
  'supervision.loopStopAfter': async () => {
    const stepsUntilStopped = async (loopStopAfter: number) => {
      await harness.reset();
      policy = openSettingsForEver;
      const record = await runTask(configWith({ supervision: { loopWarnAfter: 1, loopStopAfter }, aiPlanner: { sendScreenshot: false } }));
      expect(record.status).toBe('failed');
      return acted(record);
    };
    expect(await stepsUntilStopped(3)).toBe((await stepsUntilStopped(2)) + 1);
  },
  'aiPlanner.reuseRuns': async () => {
    const sources = await openSettingsCached();
    const modelCalls = async (reuseRuns: boolean) => {
      const config = configWith({ aiPlanner: { reuseRuns } });
      return modelCallsWith(config, await withPlanCache(buildPlanner(config), 'Open Settings', sources, config.settings.aiPlanner.reuseRuns));
    };
    expect(await modelCalls(false)).toBe(2);
    expect(await modelCalls(true)).toBeLessThan(2);
  },
  'aiPlanner.appNotes': async () => {
    const notes = createNotesStore(await mkdtemp(path.join(dir, 'notes-')));
    await notes.keep('an-earlier-task', [{ app: 'com.android.settings', goal: 'Find the Wi-Fi switch', route: 'Network & internet > Internet' }]);
    policy = () => (turnOfTask() === 0 ? { kind: 'call', tool: 'launch_app', args: { app: 'Settings' } } : finish(true, 'Settings is open'));
    await runTask(configWith({ aiPlanner: { appNotes: false } }), { appNotes: notes, goal: 'Find the Wi-Fi switch' });
    expect(turns.some((turn) => turn.allText.includes('<app_notes>'))).toBe(false);
    await harness.reset();
    await runTask(configWith({ aiPlanner: { appNotes: true } }), { appNotes: notes, goal: 'Find the Wi-Fi switch' });
    expect(turns.some((turn) => turn.allText.includes('<app_notes>') && turn.allText.includes('Network & internet > Internet'))).toBe(true);
  },
  'fleet.deviceGroups': async () => {
    const groups = deviceGroupsOf(configWith({ fleet: { deviceGroups: `lab: ${harness.serial}; desk: emulator-5554` } }).settings.fleet.deviceGroups);
    expect(phonesOfLaunch({ group: 'lab' }, [harness.serial], groups, ENGLISH)).toEqual([harness.serial]);
    expect(() => phonesOfLaunch({ group: 'lab' }, [harness.serial], deviceGroupsOf(configWith().settings.fleet.deviceGroups), ENGLISH)).toThrow(/lab/);
  },
  'fleet.jobsMayPreApprove': async () => {
    // A fleet job sent with --yes, at a sensitive tap: its yes counts only where this machine's owner allows it.
    const job = { goal: 'Delete Carol', target: { kind: 'any' as const }, yes: true, answers: [], launchId: 'acts', submittedAt: new Date().toISOString() };
    const held: SupervisorRequest = {
      taskId: 't',
      requestId: 'r',
      step: 1,
      request: { kind: 'confirmation', tool: 'tap', args: {}, rationale: null, reasons: ['it taps "Delete" (delete)'], target: null },
    };
    const replyWith = async (settings: Settings) => (await jobSupervisor(job, settings.fleet.jobsMayPreApprove, () => undefined).ask(held, { signal: new AbortController().signal })).reply;
    expect(await replyWith(settingsWith({}))).toMatchObject({ kind: 'unanswered', reason: expect.stringMatching(/does not let jobs approve sensitive actions in advance/) });
    expect(await replyWith(settingsWith({ fleet: { jobsMayPreApprove: true } }))).toEqual({ kind: 'allow', scope: 'once' });
  },
  'fleet.jobsUsePlanCache': async () => {
    // A fleet job of a goal this machine has a reused run of: followed (and taught) only where the owner allows it.
    const sources = await openSettingsCached();
    const modelCalls = async (jobsUsePlanCache: boolean) => {
      const config = configWith({ fleet: { jobsUsePlanCache } });
      const job = await planCacheForJob('Open Settings', config, buildPlanner(config), sources);
      expect(job.planCache !== undefined).toBe(jobsUsePlanCache);
      return modelCallsWith(config, job.planner);
    };
    expect(await modelCalls(false)).toBe(2);
    expect(await modelCalls(true)).toBeLessThan(2);
  },
  'secrets.AMC_FLEET_REDIS': async () => {
    expect(await readFleetView(configWith())).toEqual({ kind: 'not-set' });
    const closed = await notAdbPort();
    await closed.close();
    const view = await readFleetView(configWith({}, { AMC_FLEET_REDIS: `redis://:acts-password@127.0.0.1:${closed.port}` }));
    expect(view).toMatchObject({ kind: 'problem', address: expect.stringContaining(`127.0.0.1:${closed.port}`) });
    expect(JSON.stringify(view)).not.toContain('acts-password');
  },
  'supervision.standingInstructions': async () => {
    await runTask(configWith({ supervision: { standingInstructions: 'My name is Ana.' } }));
    expect(turns.at(-1)!.system + turns.at(-1)!.allText).toContain('My name is Ana.');
  },
  'helpers.videoMirror': async () => {
    const off = await mirrorStatusWith({ SCRCPY_SERVER_PATH: scrcpyFile, AMC_VIDEO_MIRROR: 'off' }, (status) => Boolean(status.fallbackReason));
    expect(off).toMatchObject({ source: 'screenshots', fallbackReason: 'the video mirror is off in Settings' });
  },
  'helpers.scrcpyServerPath': async () => {
    const live = await mirrorStatusWith({ SCRCPY_SERVER_PATH: scrcpyFile, AMC_HELPER_DOWNLOAD: 'off' }, (status) => status.source === 'video' || Boolean(status.fallbackReason));
    expect(live).toMatchObject({ source: 'video', fallbackReason: null });
  },
  'helpers.yadbPath': async () => {
    await harness.reset({ adbKeyboard: false });
    expect(await typeWith(settingsWith({ helpers: { yadbPath: yadbFile, download: false } }), '李雷')).toBeNull();
    await harness.reset({ adbKeyboard: false });
    expect(await typeWith(settingsWith({ helpers: { yadbPath: '', download: false } }), '李雷')).toMatch(/yadb/);
  },
  'helpers.download': async () => {
    await withServer(async (downloads) => {
      await harness.reset({ adbKeyboard: false });
      await typeWith(settingsWith({ helpers: { yadbPath: '', download: false } }), '李雷', `${downloads.url}/yadb`);
      expect(downloads.requests).toHaveLength(0);
      await harness.reset({ adbKeyboard: false });
      await typeWith(settingsWith({ helpers: { yadbPath: '', download: true } }), '李雷', `${downloads.url}/yadb`);
      expect(downloads.requests.map((request) => request.path)).toEqual(['/yadb']);
    });
  },
  'typing.method': async () => {
    // yadb is there, ADBKeyBoard is not: "auto" types, "adb-keyboard" refuses before anything is sent.
    await harness.reset({ adbKeyboard: false });
    expect(await typeWith(settingsWith({ helpers: { yadbPath: yadbFile }, typing: { method: 'auto' } }), '李雷')).toBeNull();
    await harness.reset({ adbKeyboard: false });
    expect(await typeWith(settingsWith({ helpers: { yadbPath: yadbFile }, typing: { method: 'adb-keyboard' } }), '李雷')).toMatch(/ADBKeyBoard/i);
  },
};

describe('settings act', () => {
  it('Scenario: Every setting of the catalog says how it acts', () => {
    expect(Object.keys(ACTS).sort()).toEqual(SETTINGS_CATALOG.map((entry) => entry.path).sort());
  });

  it.each(SETTINGS_CATALOG.map((entry) => entry.path))('Scenario: Each setting changes what it claims to change (%s)', async (setting) => {
    await ACTS[setting]();
  }, 90_000);
});
