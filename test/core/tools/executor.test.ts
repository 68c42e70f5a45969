import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import { Observer } from '../../../src/core/perception/observer';
import { Executor } from '../../../src/core/tools/executor';
import type { StepOutcome } from '../../../src/shared/action';
import type { Scene, SceneElement } from '../../../src/shared/scene';
import type { PhoneState } from '@amc/demo-phone';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';

let harness: AdbHarness;
let adb: AdbClient;
let observer: Observer;
let executor: Executor;
let scene: Scene | null;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  observer = new Observer(adb, { screenshot: false });
  executor = new Executor(adb, { initialBackoffMs: 20 });
});
afterAll(async () => {
  await harness?.stop();
});
beforeEach(async () => {
  await reset();
});

async function reset(seed?: Record<string, unknown>): Promise<void> {
  await harness.control('/reset', { method: 'POST', ...(seed && { body: seed }) });
  await observe();
}

async function observe(): Promise<Scene> {
  const observation = await observer.observe(harness.serial);
  scene = observation.scene;
  if (!scene) throw new Error(observation.sceneError);
  return scene;
}

const state = (): Promise<PhoneState> => harness.state();

function find(label: string): SceneElement {
  const element = scene?.elements.find(
    (e) => e.text === label || e.desc === label || e.resourceId === label || e.text?.startsWith(`${label} | `),
  );
  if (!element) throw new Error(`no "${label}" in ${JSON.stringify(scene?.elements.map((e) => e.text ?? e.desc ?? e.resourceId))}`);
  return element;
}

/** Runs one tool against the current Scene, expects success, and observes again. */
async function act(name: string, args: Record<string, unknown>): Promise<StepOutcome> {
  const outcome = await executor.execute({ name, args }, { serial: harness.serial, scene });
  expect(outcome.error).toBeUndefined();
  expect(outcome.ok).toBe(true);
  await observe();
  return outcome;
}

/** Opens a new note in the Notes app, with its title and body fields on screen. */
async function openNewNote(): Promise<void> {
  await act('launch_app', { app: 'Notes' });
  await act('tap', { element_id: find('New note').id });
}

async function saveNote(): Promise<void> {
  if (scene!.screen.keyboardShown) await act('press_key', { key: 'back' });
  await act('tap', { element_id: find('Save').id });
}

describe('every tool changes the phone', () => {
  it('Scenario: Tap on a known element reaches the phone', async () => {
    const outcome = await act('tap', { element_id: find('Settings').id });
    expect(outcome.target).toMatchObject({ label: 'TextView "Settings"' });
    expect((await state()).foreground).toBe('com.android.settings');
    expect(scene!.screen.package).toBe('com.android.settings');
  });

  it('taps by device coordinates', async () => {
    const [left, top, right, bottom] = find('Clock').bounds;
    const outcome = await act('tap', { x: left + 10, y: Math.round((top + bottom) / 2) });
    expect(outcome.target).toMatchObject({ label: 'TextView "Clock"' });
    expect(right).toBeGreaterThan(left);
    expect((await state()).foreground).toBe('com.android.deskclock');
  });

  it('Scenario: Long press reaches the phone', async () => {
    await act('launch_app', { app: 'Notes' });
    await act('long_press', { element_id: find('Shopping list').id });
    expect((await state()).dialog).toBe('Delete note?');
    expect(find('Delete')).toMatchObject({ clickable: true });
  });

  it('Scenario: Swipe scrolls a list', async () => {
    await act('launch_app', { app: 'com.android.settings' });
    expect(() => find('About phone')).toThrow();
    const list = scene!.elements.find((e) => e.scrollable)!;
    for (let i = 0; i < 3 && !scene!.elements.some((e) => e.text?.startsWith('About phone')); i++) {
      await act('swipe', { direction: 'up', element_id: list.id });
    }
    await act('tap', { element_id: find('About phone').id });
    expect(scene!.elements.some((e) => e.text?.includes('14'))).toBe(true);
  });

  it('Scenario: Device keys reach the phone', async () => {
    await act('launch_app', { app: 'Clock' });
    expect((await state()).foreground).toBe('com.android.deskclock');
    await act('press_key', { key: 'home' });
    expect((await state()).foreground).toBe('com.android.launcher3');
    await act('launch_app', { app: 'Messages' });
    await act('press_key', { key: 'back' });
    expect((await state()).foreground).toBe('com.android.launcher3');
  });

  it('Scenario: Apps launch by label or package', async () => {
    await act('launch_app', { app: 'Contacts' });
    expect((await state()).foreground).toBe('com.android.contacts');
    await act('launch_app', { app: 'com.amc.notes' });
    expect((await state()).foreground).toBe('com.amc.notes');
    const outcome = await executor.execute({ name: 'launch_app', args: { app: 'Spotify' } }, { serial: harness.serial, scene });
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/No installed app matches "Spotify"/) });
  });

  it('Scenario: launch_app outside the allowed apps is refused by the Executor', async () => {
    const allowedApps = ['com.android.contacts'];
    const home = (await state()).foreground;
    const refused = await executor.execute({ name: 'launch_app', args: { app: 'Messages' } }, { serial: harness.serial, scene, allowedApps });
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/^com\.android\.messaging is not among this task's allowed apps \(com\.android\.contacts\); it was not opened\.$/) });
    expect((await state()).foreground).toBe(home);
    const opened = await executor.execute({ name: 'launch_app', args: { app: 'Contacts' } }, { serial: harness.serial, scene, allowedApps });
    expect(opened).toMatchObject({ ok: true, app: 'com.android.contacts' });
    expect((await state()).foreground).toBe('com.android.contacts');
  });

  it('waits and describes the screen without touching the phone', async () => {
    const before = await state();
    const waited = await executor.execute({ name: 'wait', args: { seconds: 0.2 } }, { serial: harness.serial, scene });
    expect(waited).toMatchObject({ ok: true, attempts: 0 });
    expect(await executor.execute({ name: 'describe_screen', args: {} }, { serial: harness.serial, scene })).toMatchObject({ ok: true, attempts: 0 });
    expect(await state()).toEqual(before);
  });
});

describe('typing text', () => {
  it('Scenario: Tricky ASCII text is typed exactly', async () => {
    const tricky = `Tom's "50% off" & more; a|b <c> (d) *e* ~f \`g\` $HOME \\path %s 100%% #x !y ?z [k] {v} =w, ^u`;
    await openNewNote();
    await act('type_text', { element_id: find('note_title').id, text: 'Tricky' });
    await act('type_text', { element_id: find('note_body').id, text: tricky });
    expect(scene!.elements.find((e) => e.resourceId === 'note_body')?.text).toBe(tricky);
    await saveNote();
    expect((await state()).notes.at(-1)).toEqual({ title: 'Tricky', body: tricky });
  });

  it('replaces a field with clear_first and presses Enter with submit', async () => {
    await openNewNote();
    await act('type_text', { element_id: find('note_body').id, text: 'first draft', submit: true });
    await act('type_text', { text: 'second line' });
    expect(scene!.elements.find((e) => e.resourceId === 'note_body')?.text).toBe('first draft\nsecond line');
    await act('type_text', { element_id: find('note_title').id, text: 'Old title' });
    await act('type_text', { element_id: find('note_title').id, text: 'New title', clear_first: true });
    await saveNote();
    expect((await state()).notes.at(-1)).toEqual({ title: 'New title', body: 'first draft\nsecond line' });
  });

  it('Scenario: Non-ASCII text goes through the IME', async () => {
    await reset({ contactsPermission: 'granted' });
    const imeBefore = (await state()).ime.current;
    await act('launch_app', { app: 'Contacts' });
    await act('tap', { element_id: find('Create contact').id });
    await act('type_text', { element_id: find('editor_name').id, text: '李雷' });
    await act('type_text', { element_id: find('editor_phone').id, text: '+86 138 0000 0000' });
    expect((await state()).ime.current).toBe(imeBefore);
    await act('tap', { element_id: find('Save').id });
    expect((await state()).contacts).toContainEqual({ name: '李雷', phone: '+86 138 0000 0000' });
  });

  it('Scenario: Non-ASCII text without the IME fails clearly', async () => {
    await reset({ adbKeyboard: false });
    await openNewNote();
    const outcome = await executor.execute(
      { name: 'type_text', args: { element_id: find('note_title').id, text: '李雷' } },
      { serial: harness.serial, scene },
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/needs the ADBKeyBoard input method, which is not enabled/);
    // Nothing was typed: the title field was not even tapped.
    expect((await state()).focusedField).toBeNull();
  });
});

describe('failures and cancellation', () => {
  it('Scenario: A connection dropped mid-command is reported clearly', async () => {
    await harness.control('/faults', { body: { kind: 'connection-drop' } });
    const outcome = await executor.execute({ name: 'tap', args: { element_id: find('Notes').id } }, { serial: harness.serial, scene });
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/connection to 127\.0\.0\.1:\d+ dropped during `input tap \d+ \d+`/);
    expect(outcome.error).toMatch(/amc devices/);
    expect(outcome.target).toMatchObject({ label: 'TextView "Notes"' });
    await harness.waitForState('device');
  });

  it('Scenario: Aborting stops the in-flight command and sends nothing more', async () => {
    await openNewNote();
    expect((await state()).focusedField).toBeNull();
    const before = await state();
    await harness.control('/faults', { body: { kind: 'hang' } });
    const controller = new AbortController();
    const pending = executor.execute(
      { name: 'type_text', args: { element_id: find('note_body').id, text: 'never typed', submit: true } },
      { serial: harness.serial, scene, signal: controller.signal },
    );
    await harness.waitForHang();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => harness.device.adb.stats().streams, { timeout: 5000 }).toBe(0);
    // The Executor has settled; a full observation through the same adb client afterwards sees nothing typed.
    await observe();
    expect(await state()).toEqual(before);
    expect(scene!.elements.find((e) => e.resourceId === 'note_body')?.text).not.toContain('never typed');
  });
});
