// History files that no task could have written (copied in, hand-edited, grown without end) next to normal ones:
// the app keeps answering, lists every task, and names what is wrong with the odd files.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TASK_TURNS } from '../../src/core/storage/task-file';
import { TASKS_FOLDER } from '../../src/core/storage/task-store';
import { HISTORY_PAGE_TURNS } from '../../src/shared/contract';
import { taskEvents, turnBytes, writeLongTaskFile } from '../core/storage/task-fixtures';
import { removeHome, startTestApp, type TestApp } from './app-fixture';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) {
    await app.close();
    await removeHome(app.home);
  }
});

const writeTaskFile = (folder: string, id: string, turns: number, options: { finished?: boolean } = {}) => writeLongTaskFile(path.join(folder, `${id}.jsonl`), id, turns, options);

/** Resolves with the answer, or rejects when none came in `ms` (a bound far above any answer of a responsive app). */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms).unref())]);
}

describe('history limits', () => {
  it('Scenario: A 200 MB history file is listed as damaged while the app keeps answering', async () => {
    const app = await startTestApp({ env: { PATH: process.env.PATH } });
    apps.push(app);
    const folder = path.join(app.home, TASKS_FOLDER);
    await mkdir(folder, { recursive: true });
    for (const id of ['normal-a', 'normal-b']) {
      await writeFile(path.join(folder, `${id}.jsonl`), taskEvents(id).map((event) => `${JSON.stringify(event)}\n`).join(''));
    }
    // A task that never finished (so its summary cannot come from its ends), 200 MB of turns.
    await writeTaskFile(folder, 'huge', Math.ceil((200 * 1024 * 1024) / turnBytes('huge')));
    // Small, but with more turns than any task can take.
    await writeTaskFile(folder, 'endless', MAX_TASK_TURNS + 1);

    // While the store looks at the odd files, the app answers at once.
    const listing = app.call('history.list', {});
    const opened = app.fail('history.get', { id: 'endless' });
    expect(await within(5_000, 'app.ping', app.call('app.ping', { nonce: 'during' }))).toMatchObject({ nonce: 'during' });

    const { tasks, damaged } = await within(30_000, 'history.list', listing);
    expect(tasks.map((task) => task.id).sort()).toEqual(['normal-a', 'normal-b']);
    expect(damaged).toMatchObject([
      { fileName: 'endless.jsonl', problem: expect.stringMatching(/more than 5,000 turns, more than any task can take/), problemSaid: { code: 'taskFile.tooManyTurns' }, action: expect.stringContaining('Move or delete') },
      { fileName: 'huge.jsonl', problem: expect.stringMatching(/^it is 2\d\d MB, larger than any task record \(at most 50 MB\)/), problemSaid: { code: 'taskFile.tooLarge' }, action: expect.stringContaining('Move or delete') },
    ]);
    expect((await within(30_000, 'history.get', opened)).message).toMatch(/cannot be shown: it holds more than 5,000 turns/);
    expect((await app.fail('history.get', { id: 'huge' })).message).toMatch(/cannot be shown: it is 2\d\d MB/);
    // The normal tasks still read back whole, and the app still answers.
    expect((await app.call('history.get', { id: 'normal-a' })).steps).toHaveLength(2);
    expect(await app.call('app.ping', { nonce: 'after' })).toMatchObject({ nonce: 'after' });
  }, 120_000);

  it('Scenario: A long task within the limits opens at its latest turns, off the main thread, and reads back every turn a page at a time', async () => {
    const app = await startTestApp({ env: { PATH: process.env.PATH } });
    apps.push(app);
    const folder = path.join(app.home, TASKS_FOLDER);
    await mkdir(folder, { recursive: true });
    await writeTaskFile(folder, 'long', MAX_TASK_TURNS, { finished: true });
    const record = app.call('history.get', { id: 'long' });
    expect(await app.call('app.ping', { nonce: 'while-loading' })).toMatchObject({ nonce: 'while-loading' });
    const opened = await record;
    // The latest page, and how many turns and actions the task has in all.
    expect(opened.page).toEqual({ from: MAX_TASK_TURNS - HISTORY_PAGE_TURNS, turnCount: MAX_TASK_TURNS, actionCount: MAX_TASK_TURNS });
    expect(opened.steps.map((step) => step.step)).toEqual(Array.from({ length: HISTORY_PAGE_TURNS }, (_, index) => MAX_TASK_TURNS - HISTORY_PAGE_TURNS + index + 1));
    // The summary is folded from every turn, not from the page.
    expect(opened.timings.planMs).toBe(300 * MAX_TASK_TURNS);

    // Page by page from the first turn, every turn comes back once, in order, with its action and outcome.
    const steps = [];
    for (let from = 0; from < MAX_TASK_TURNS; from += HISTORY_PAGE_TURNS) {
      const page = await app.call('history.turns', { id: 'long', from });
      expect(page).toMatchObject({ id: 'long', from, turnCount: MAX_TASK_TURNS });
      steps.push(...page.steps);
    }
    expect(steps).toHaveLength(MAX_TASK_TURNS);
    expect(steps.every((step, index) => step.step === index + 1 && step.planned?.tool === 'swipe' && step.outcome?.ok)).toBe(true);
    // Past the end: no turns, and where the end is.
    expect(await app.call('history.turns', { id: 'long', from: MAX_TASK_TURNS + 5 })).toEqual({ id: 'long', from: MAX_TASK_TURNS, turnCount: MAX_TASK_TURNS, steps: [] });
    // A page larger than a page, or a negative start, is refused before any file is read.
    expect((await app.fail('history.turns', { id: 'long', from: 0, count: HISTORY_PAGE_TURNS + 1 })).message).toMatch(/count/);
    expect((await app.fail('history.turns', { id: 'long', from: -1 })).message).toMatch(/from/);
    // What needs every turn (the JSON download) still gets them all.
    const whole = JSON.parse((await app.call('history.exportJson', { id: 'long' })).text) as { steps: unknown[]; page?: unknown };
    expect(whole.steps).toHaveLength(MAX_TASK_TURNS);
    expect(whole.page).toBeUndefined();
    expect((await app.call('history.list', {})).tasks).toMatchObject([{ id: 'long', steps: MAX_TASK_TURNS, status: 'completed' }]);
  }, 90_000);
});
