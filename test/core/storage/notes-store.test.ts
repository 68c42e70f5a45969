// The notes file beside history: replaced atomically, bounded, and never overwritten when it cannot be read.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNotesStore, NOTES_FILE, NotesError, NotesFileError } from '../../../src/core/storage/notes-store';

let home: string;
let clock = 0;
const store = (maxNotes?: number) => createNotesStore(home, { now: () => ++clock, ...(maxNotes && { limits: { maxNotes, maxFileBytes: 1 << 20 } }) });
const wifi = { app: 'com.android.settings', goal: 'Turn off Wi-Fi.', route: 'Settings > Network & internet > Wi-Fi' };

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-notes-store-'));
});
afterEach(() => rm(home, { recursive: true, force: true }));

describe('notes store', () => {
  it('Scenario: A damaged notes file is reported and left as it is', async () => {
    const notes = store();
    await notes.keep('t1', [wifi]);
    const file = path.join(home, NOTES_FILE);
    const damaged = (await readFile(file, 'utf8')).slice(0, 40);
    await writeFile(file, damaged);
    await expect(notes.list()).rejects.toThrow(NotesFileError);
    await expect(notes.list()).rejects.toThrow(/is not valid JSON; fix or delete it\. It was not changed/);
    // Every change is refused and the file keeps its bytes (the person can still repair it).
    await expect(notes.keep('t2', [wifi])).rejects.toThrow(NotesFileError);
    await expect(notes.remove('x')).rejects.toThrow(NotesFileError);
    expect(await readFile(file, 'utf8')).toBe(damaged);
    // Nothing else in the folder was touched (no stray temporary file either).
    expect(await readdir(path.dirname(file))).toEqual(['app-notes.json']);
    await writeFile(file, JSON.stringify({ version: 1, notes: [{ id: 'x' }] }));
    await expect(notes.list()).rejects.toThrow(/is not a notes file \(notes\.0\.app: /);
  });

  it('keeps one learned note per goal and app, and the person\u2019s edit over a later run', async () => {
    const notes = store();
    await notes.keep('t1', [wifi]);
    await notes.keep('t2', [{ ...wifi, goal: 'turn off wi-fi', route: 'Settings > Wi-Fi' }]);
    expect((await notes.list()).map((n) => [n.taskId, n.route])).toEqual([['t2', 'Settings > Wi-Fi']]);
    const [learned] = await notes.list();
    const edited = await notes.edit({ id: learned!.id, goal: 'Turn off Wi-Fi', route: 'Quick settings > Wi-Fi tile' });
    expect(edited.editedAt).not.toBeNull();
    expect(await notes.keep('t3', [wifi])).toEqual([]);
    expect((await notes.list()).map((n) => n.route)).toEqual(['Quick settings > Wi-Fi tile']);
    await expect(notes.edit({ id: 'missing', goal: 'g', route: 'r' })).rejects.toThrow(NotesError);
  });

  it('drops the oldest learned notes past the cap, the person\u2019s edits last', async () => {
    const notes = store(3);
    await notes.keep('t0', [{ ...wifi, goal: 'goal 0' }]);
    const [first] = await notes.list();
    await notes.edit({ id: first!.id, goal: 'goal 0', route: 'edited' });
    for (const index of [1, 2, 3]) await notes.keep(`t${index}`, [{ ...wifi, goal: `goal ${index}` }]);
    expect((await notes.list()).map((n) => n.goal)).toEqual(['goal 3', 'goal 2', 'goal 0']);
  });

  it('sees another process\u2019s change to the file', async () => {
    const notes = store();
    await notes.keep('t1', [wifi]);
    expect(await notes.notesFor(wifi.app)).toHaveLength(1);
    await store().forgetTask('t1');
    expect(await notes.notesFor(wifi.app)).toEqual([]);
  });
});
