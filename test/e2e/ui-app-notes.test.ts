// Notes per app in the browser: a task run from the window teaches a note; Settings shows, edits and deletes it;
// "Mark as wrong" in History removes what a run taught. The app, its demo phone, the real Anthropic SDK against the
// fake API, and real Chromium.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FAKE_ANTHROPIC_KEY, finish } from '../fakes/index';
import { SUITE_SCRIPTS, stepsPolicy } from '../fakes/suite-agent';
import { taskById } from '../../src/eval/tasks/index';
import { NOTES_FILE } from '../../src/core/storage/notes-store';
import { openApp, saveScreenshot } from './ui-support';
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
  }),
});

const WIFI = taskById('settings-wifi-off');
const LEARNED = `${WIFI.goal}: Settings > Network & internet > Wi-Fi`;

beforeEach(async () => {
  await ui.host.harness.control('/reset', { body: WIFI.seed ?? {} });
  model.policy = stepsPolicy(SUITE_SCRIPTS[WIFI.id]!());
});

/** Runs the Wi-Fi goal from the goal box until its result shows. */
async function runWifiGoal(page: Page): Promise<void> {
  const input = page.getByLabel('What should the phone do?');
  await input.fill(WIFI.goal);
  await input.press('Enter');
  await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 30_000 });
}

async function openNotes(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Open settings' }).click();
  const notes = page.getByRole('dialog', { name: 'Settings' }).getByTestId('app-notes');
  await notes.waitFor();
  return notes;
}

const storedNotes = async (): Promise<Array<{ goal: string; route: string; taskId: string }>> => {
  const text = await readFile(path.join(ui.host.home, NOTES_FILE), 'utf8');
  return (JSON.parse(text) as { notes: Array<{ goal: string; route: string; taskId: string }> }).notes;
};

describe('notes per app in the browser', { timeout: 120_000 }, () => {
  it('Scenario: The person edits and deletes a note in Settings', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await runWifiGoal(page);
    const notes = await openNotes(page);
    const note = notes.getByTestId('app-note').filter({ hasText: LEARNED });
    await note.waitFor();
    expect(await notes.getByRole('heading', { name: 'com.android.settings' }).count()).toBe(1);
    await note.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'settings-app-notes');

    await note.getByRole('button', { name: `Edit the note "${WIFI.goal}"` }).click();
    const editing = notes.locator('.app-note.editing');
    await editing.getByLabel('Route').fill('Quick settings > Wi-Fi tile');
    await editing.getByRole('button', { name: 'Save note' }).click();
    const edited = notes.getByTestId('app-note').filter({ hasText: `${WIFI.goal}: Quick settings > Wi-Fi tile` });
    await edited.waitFor();
    expect((await storedNotes()).map((n) => n.route)).toEqual(['Quick settings > Wi-Fi tile']);

    // An empty route is refused in plain words and the note keeps its text.
    await edited.getByRole('button', { name: `Edit the note "${WIFI.goal}"` }).click();
    await editing.getByLabel('Route').fill('   ');
    await editing.getByRole('button', { name: 'Save note' }).click();
    await editing.getByRole('alert').waitFor();
    expect(await editing.getByRole('alert').textContent()).toBe('That input was not accepted: route: the route must not be empty.');
    await editing.getByRole('button', { name: 'Cancel' }).click();
    expect((await storedNotes()).map((n) => n.route)).toEqual(['Quick settings > Wi-Fi tile']);

    await edited.getByRole('button', { name: `Delete the note "${WIFI.goal}"` }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
    await notes.getByText('No notes yet.').waitFor();
    expect(await storedNotes()).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Scenario: Mark as wrong in History removes the notes the run taught', async () => {
    const { page, errors } = await openApp(ui.browser, ui.host);
    await runWifiGoal(page);
    const [taught] = await storedNotes();
    expect(taught?.route).toBe('Settings > Network & internet > Wi-Fi');
    // The finished task offers it right away; here the person finds the run later, in History.
    expect(await page.getByRole('article', { name: 'Done' }).getByRole('button', { name: 'Mark as wrong' }).isEnabled()).toBe(true);

    await page.getByRole('tab', { name: 'History' }).click();
    await page.locator(`[data-testid="history-row"][data-task-id="${taught!.taskId}"]`).getByRole('button', { name: `Open "${WIFI.goal}"` }).click();
    await page.getByRole('button', { name: 'Mark as wrong' }).click();
    expect(await page.getByTestId('mark-wrong-result').textContent()).toBe(
      'Marked as wrong: removed the note it taught (Settings > Network & internet > Wi-Fi).',
    );
    expect(await storedNotes()).toEqual([]);
    const notes = await openNotes(page);
    await notes.getByText('No notes yet.').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
