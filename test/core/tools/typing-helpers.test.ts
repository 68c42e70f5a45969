// Typing what `input text` cannot type, through the real adb server and the demo phone: yadb (pushed from a local
// file and run with app_process), ADBKeyBoard when yadb is absent or fails, and the error when both are missing.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import { HelperProvider, type HelperSettings } from '../../../src/core/device/helpers/helper-provider';
import { PhoneHelpers } from '../../../src/core/device/helpers/phone-helpers';
import { Observer } from '../../../src/core/perception/observer';
import { Executor } from '../../../src/core/tools/executor';
import type { TypingMethod } from '../../../src/shared/settings-catalog';
import type { Scene } from '../../../src/shared/scene';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { writeHelperStandIn } from '../../support/helper-stand-in';

let harness: AdbHarness;
let adb: AdbClient;
let observer: Observer;
let dir: string;
let yadbFile: string;
let refusedUrl: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  observer = new Observer(adb, { screenshot: false });
  dir = await mkdtemp(path.join(tmpdir(), 'amc-typing-'));
  yadbFile = path.join(dir, 'yadb');
  await writeHelperStandIn('yadb', yadbFile);
  // A port nobody listens on: the download is refused, as without a network.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  refusedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/yadb`;
  await new Promise((resolve) => probe.close(resolve));
}, 60_000);
afterAll(async () => {
  await harness?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** An Executor whose typing uses yadb from `yadbPath` ('' = not configured, and the download is refused). */
function executorWith(yadbPath: string, method: TypingMethod = 'auto'): Executor {
  const settings: HelperSettings = { scrcpyServerPath: '', yadbPath, download: true };
  const provider = new HelperProvider({ settings: async () => settings, dataDir: dir, shippedDir: null, downloadUrls: { yadb: refusedUrl } });
  return new Executor(adb, { initialBackoffMs: 20, typing: { method: async () => method, helpers: new PhoneHelpers(async () => adb, provider) } });
}

async function sceneNow(): Promise<Scene> {
  const observation = await observer.observe(harness.serial);
  if (!observation.scene) throw new Error(observation.sceneError);
  return observation.scene;
}

/** Opens a new note and types `text` into its body; returns the outcome and the body as the next Scene reads it. */
async function typeIntoNewNote(executor: Executor, text: string) {
  const run = async (name: string, args: Record<string, unknown>) => executor.execute({ name, args }, { serial: harness.serial, scene: await sceneNow() });
  expect((await run('launch_app', { app: 'Notes' })).ok).toBe(true);
  const newNote = (await sceneNow()).elements.find((element) => element.text === 'New note' || element.desc === 'New note')!;
  expect((await run('tap', { element_id: newNote.id })).ok).toBe(true);
  const body = (await sceneNow()).elements.find((element) => element.resourceId === 'note_body')!;
  const outcome = await run('type_text', { element_id: body.id, text });
  const typed = (await sceneNow()).elements.find((element) => element.resourceId === 'note_body')?.text ?? null;
  return { outcome, typed };
}

const TEXTS = ['李雷', 'ok 👍🏽 done', `$\`'"`];

describe('typing with phone helpers', () => {
  it('Scenario: yadb types any language and shell-hostile text without a keyboard app', async () => {
    // No ADBKeyBoard on this phone: only yadb can type these.
    for (const text of TEXTS) {
      await harness.reset({ adbKeyboard: false });
      const imeBefore = (await harness.state()).ime.current;
      const { outcome, typed } = await typeIntoNewNote(executorWith(yadbFile), text);
      expect(outcome.error).toBeUndefined();
      expect(typed).toBe(text);
      expect((await harness.state()).ime.current).toBe(imeBefore);
    }
  });

  it('Scenario: Without yadb, ADBKeyBoard types the text', async () => {
    // yadb not available at all (not configured, download refused), then present but failing on this ROM.
    for (const [executor, seed] of [
      [executorWith(''), {}],
      [executorWith(yadbFile), { yadb: false }],
    ] as const) {
      for (const text of TEXTS) {
        await harness.reset(seed);
        const { outcome, typed } = await typeIntoNewNote(executor, text);
        expect(outcome.error).toBeUndefined();
        expect(typed).toBe(text);
      }
    }
  });

  it('Scenario: Without yadb and ADBKeyBoard, non-ASCII text fails clearly', async () => {
    await harness.reset({ adbKeyboard: false });
    const { outcome } = await typeIntoNewNote(executorWith(''), '李雷');
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/needs the ADBKeyBoard input method/);
    expect(outcome.error).toMatch(/yadb, which types any language without it, is not available either: the yadb 1\.1\.1 download failed \(ECONNREFUSED\)/);
    // Decided before anything was sent: the field was not even tapped.
    expect((await harness.state()).focusedField).toBeNull();
    await harness.reset({ adbKeyboard: false, yadb: false });
    const failing = await typeIntoNewNote(executorWith(yadbFile), '李雷');
    expect(failing.outcome.error).toMatch(/yadb could not type on this phone .*SecurityException/);
    // Shell-hostile ASCII still types through `input text` when yadb fails.
    const ascii = await typeIntoNewNote(executorWith(yadbFile), `$\`'"`);
    expect(ascii.typed).toBe(`$\`'"`);
  });

  it('Scenario: Settings can force the typing method', async () => {
    await harness.reset({});
    const forcedYadb = await typeIntoNewNote(executorWith('', 'yadb'), '李雷');
    expect(forcedYadb.outcome.error).toMatch(/^Settings choose yadb for typing, but the yadb 1\.1\.1 download failed \(ECONNREFUSED\)\.$/);
    await harness.reset({ yadb: false });
    // ADBKeyBoard forced: yadb (which would fail here) is not even tried.
    const forcedKeyboard = await typeIntoNewNote(executorWith(yadbFile, 'adb-keyboard'), '李雷');
    expect(forcedKeyboard.outcome.error).toBeUndefined();
    expect(forcedKeyboard.typed).toBe('李雷');
    await harness.reset({ adbKeyboard: false });
    const keyboardMissing = await typeIntoNewNote(executorWith(yadbFile, 'adb-keyboard'), '李雷');
    expect(keyboardMissing.outcome.error).toMatch(/Settings choose ADBKeyBoard for typing/);
  });
});
