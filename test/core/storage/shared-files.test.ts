// The notes and schedules files are changed by several processes at once (the app, `amc run`, `amc schedule`): each
// change is read, made and written under the file's lock, so none is lost; a lock left by a dead process is taken over.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNotesStore } from '../../../src/core/storage/notes-store';
import { createScheduleStore } from '../../../src/core/storage/schedule-store';
import { FileLockTimeoutError, withFileLock } from '../../../src/core/storage/file-lock';

const writer = path.join(import.meta.dirname, '..', '..', 'support', 'shared-file-writer.ts');
let home = '';

afterEach(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

function runWriter(tag: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, home, tag, String(count)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${tag} exited ${code}: ${stderr}`))));
  });
}

describe('files shared between processes', { timeout: 120_000 }, () => {
  it('Scenario: Changes made by several processes at once are all kept', async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'amc-shared-files-'));
    const writers = ['app', 'run', 'schedule'];
    await Promise.all(writers.map((tag) => runWriter(tag, 25)));

    const expected = writers.flatMap((tag) => Array.from({ length: 25 }, (_, index) => `${tag}-${index}`)).sort();
    const schedules = await createScheduleStore(home).load();
    expect(schedules.schedules.map((schedule) => schedule.name).sort()).toEqual(expected);
    const notes = await createNotesStore(home).list();
    expect(notes.map((note) => note.goal.replace('Goal ', '')).sort()).toEqual(expected);
  });

  it('Scenario: A lock left by a process that died does not block the next change', async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'amc-shared-files-'));
    const store = createScheduleStore(home);
    // A pid that is surely not running: a finished child's.
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '']);
      child.on('exit', () => resolve(child.pid!));
    });
    await writeFile(`${store.file}.lock`, String(dead));
    await store.update((file) => ({ ...file, missed: [] }));
    expect((await store.load()).schedules).toEqual([]);

    // A lock held by a live process is waited for, then refused in plain words.
    await writeFile(`${store.file}.lock`, String(process.pid));
    const waited = withFileLock(store.file, async () => 'never', 200);
    await expect(waited).rejects.toThrow(FileLockTimeoutError);
    await expect(waited).rejects.toThrow(/is being changed by another process/);
  });
});
