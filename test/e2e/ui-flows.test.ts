// Flows in the browser UI: a finished task saved as a flow file (a download, as the HTML report is), then that file
// opened with the page's own file picker and run on the selected demo phone without the model; a broken file is
// refused with its lines. What happened is read back from the phone (GET /state).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, findElement, finish, type FakePolicy } from '../fakes/index';
import { openApp, saveScreenshot, selectPhone } from './ui-support';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';

const model = useAnthropicFake(() => finish(true, 'nothing to do'));
const ui = useUiFixture({
  env: () => ({
    AI_PLANNER_ENABLED: 'true',
    AI_PLANNER_PROVIDER: 'anthropic',
    AI_PLANNER_TRANSPORT: 'direct',
    AI_PLANNER_MODEL: 'claude-test',
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: model.fake.url,
    TASK_CONFIRM_ACTIONS: 'off',
  }),
});

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'amc-ui-flows-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await ui.host.harness.control('/reset', { body: {} });
});

/** The model writes a note called Figs: Notes, New note, the title, Back (the keyboard covers Save), Save. */
const writesFigs: FakePolicy = (turn) => {
  const scene = turn.scene;
  if (scene?.screen.package !== 'com.amc.notes') return { kind: 'call', tool: 'launch_app', args: { app: 'Notes' }, text: 'Opening Notes.' };
  if (scene.screen.keyboardShown) return { kind: 'call', tool: 'press_key', args: { key: 'back' }, text: 'The keyboard covers the Save button.' };
  const title = findElement(scene, 'note_title');
  if (title && title.text !== 'Figs') return { kind: 'call', tool: 'type_text', args: { element_id: title.id, text: 'Figs' }, text: 'Typing the title.' };
  const save = findElement(scene, 'Save');
  if (save) return { kind: 'call', tool: 'tap', args: { element_id: save.id }, text: 'Saving the note.' };
  if (scene.elements.some((element) => element.text?.startsWith('Figs'))) return finish(true, 'The note Figs is saved.');
  return { kind: 'call', tool: 'tap', args: { element_id: findElement(scene, 'New note')!.id }, text: 'Starting a new note.' };
};

const notes = async () => ((await ui.host.harness.control<{ notes: { title: string }[] }>('/state')).body.notes ?? []).map((note) => note.title);

describe('flow files in the app', { timeout: 120_000 }, () => {
  it('Scenario: The app saves a finished task as a flow file and runs a flow file on the selected phone', async () => {
    model.policy = writesFigs;
    const goal = 'Write a note called Figs';
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    const input = page.getByLabel('What should the phone do?');
    await input.fill(goal);
    await input.press('Enter');
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 30_000 });
    expect(await notes()).toContain('Figs');

    // History → the task → "Save as flow": a YAML download, in the browser as in the desktop window.
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: `Open "${goal}"` }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save as flow' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^amc-task-write-a-note-called-figs-.+\.yaml$/);
    const yaml = await readFile(await download.path(), 'utf8');
    // Ready for CI as amc flow export writes it: the title typed is a variable, no model reasons, the note's title asserted last.
    expect(yaml).toContain('goal: Write a note called ${note_title}\n');
    expect(yaml).toContain('vars:\n  note_title: Figs\n');
    expect(yaml).toContain('  - tap: { app: com.amc.notes, desc: New note, type: ImageButton }');
    expect(yaml).not.toContain('why:');
    expect(yaml.trimEnd().split('\n').at(-1)).toMatch(/^ {2}- assert: \{ visible: "\$\{note_title\}" \}$/);

    // A fresh phone, and the file opened from disk: the flow runs on it with no model call.
    await ui.host.harness.control('/reset', { body: {} });
    expect(await notes()).not.toContain('Figs');
    const file = path.join(dir, 'figs.flow.yaml');
    await writeFile(file, yaml);
    const calls = model.fake.requests.length;
    await page.getByRole('tab', { name: 'Current task' }).click();
    await page.getByTestId('flow-file-input').setInputFiles(file);
    await expect.poll(notes, { timeout: 30_000 }).toContain('Figs');
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 30_000 });
    expect(model.fake.requests.length).toBe(calls);
    await saveScreenshot(page, 'flow-run');

    // A broken file starts nothing and says where it is broken.
    const broken = path.join(dir, 'broken.flow.yaml');
    await writeFile(broken, 'goal: Write a note\nsteps:\n  - launch_app: Notes\n  - tap: {}\n');
    await ui.host.harness.control('/reset', { body: {} });
    await page.getByTestId('flow-file-input').setInputFiles(broken);
    const problems = page.getByTestId('flow-file-problems');
    await problems.waitFor();
    expect(await problems.textContent()).toContain('broken.flow.yaml was not run:line 4, column 10: `tap` needs a target (text, desc, resourceId, hint or row), or x and y');
    expect((await ui.host.harness.control<{ foreground: string }>('/state')).body.foreground).toBe('com.android.launcher3');
    expect(errors).toEqual([]);
    await page.close();
  });
  it('Scenario: "Flow file…" runs a Maestro file as it is on the selected phone, and refuses one with a command amc does not run', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await selectPhone(page, ui.host.harness.serial);
    const calls = model.fake.requests.length;
    const file = path.join(dir, 'airplane.yaml');
    await writeFile(
      file,
      ['appId: com.android.settings', 'name: Turn on airplane mode', '---', '- launchApp', '- tapOn: "Network & internet"', '- tapOn:', '    text: "Airplane mode"', '- assertVisible: "Airplane mode"', ''].join('\n'),
    );
    await page.getByTestId('flow-file-input').setInputFiles(file);
    await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 60_000 });
    const state = (await ui.host.harness.control<{ foreground: string; settings: { airplaneMode: boolean } }>('/state')).body;
    expect(state.settings.airplaneMode).toBe(true);
    expect(state.foreground).toBe('com.android.settings');
    expect(model.fake.requests.length).toBe(calls);

    // A Maestro file with a script amc does not run starts nothing: the window names it with its line and column.
    await ui.host.harness.control('/reset', { body: {} });
    const scripted = path.join(dir, 'scripted.yaml');
    await writeFile(scripted, 'appId: com.android.settings\n---\n- launchApp\n- runScript: setup.js\n');
    await page.getByTestId('flow-file-input').setInputFiles(scripted);
    const problems = page.getByTestId('flow-file-problems');
    await problems.waitFor();
    expect(await problems.textContent()).toContain('scripted.yaml was not run:line 4, column 3: runScript: amc does not run this Maestro command');
    const after = (await ui.host.harness.control<{ foreground: string; settings: { airplaneMode: boolean } }>('/state')).body;
    expect(after.foreground).toBe('com.android.launcher3');
    expect(after.settings.airplaneMode).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });
});
