import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldTaskText, type TaskFileLimits, type TaskFileRead } from '../../../src/main/storage/task-file';
import { loadTaskFile } from '../../../src/main/storage/task-loader';
import type { TaskEvent } from '../../../src/shared/task';
import { writeLongTask } from './task-fixtures';

/** The record made by folding the whole file in order on this thread. */
const foldWhole = async (file: string, taskId: string, limits: TaskFileLimits): Promise<TaskFileRead> => foldTaskText(await readFile(file, 'utf8'), taskId, limits);

// The history worker hands a long record over in parts; whatever the file, the record made of them must be the one
// a fold of the whole file in order makes.
describe('loading a task file through the history worker', () => {
  let dir: string;
  const UNLIMITED = { maxBytes: Number.POSITIVE_INFINITY, maxTurns: Number.POSITIVE_INFINITY };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'amc-task-loader-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function longTask(name: string, turns: number): Promise<string> {
    const file = path.join(dir, name);
    await writeFile(file, '');
    await writeLongTask((chunk) => appendFile(file, chunk), 'long', turns, { finished: true });
    return file;
  }

  it('a file of many parts reads back as the whole-file fold makes it', async () => {
    // ~3 MB: many read chunks and step parts.
    const file = await longTask('many-parts.jsonl', 4000);
    const loaded = await loadTaskFile(file, 'long', UNLIMITED);
    expect(loaded.kind).toBe('record');
    expect(loaded).toEqual(await foldWhole(file, 'long', UNLIMITED));
    if (loaded.kind === 'record') expect(loaded.record.steps.map((step) => step.step)).toEqual(Array.from({ length: 4000 }, (_, index) => index + 1));
  });

  it('an event at the end of the file for its first step is applied to that step', async () => {
    const file = await longTask('late-event.jsonl', 3000);
    const late: TaskEvent = {
      type: 'step.verified',
      taskId: 'long',
      at: 1_800_000_000_000,
      step: 1,
      verification: { status: 'verified', check: 'action-taken', fact: 'verified long after' },
    };
    await appendFile(file, `${JSON.stringify(late)}\n`);
    const loaded = await loadTaskFile(file, 'long', UNLIMITED);
    expect(loaded).toEqual(await foldWhole(file, 'long', UNLIMITED));
    if (loaded.kind !== 'record') throw new Error(`not a record: ${loaded.kind}`);
    expect(loaded.record.steps).toHaveLength(3000);
    expect(loaded.record.steps[0]!.outcome?.verification?.fact).toBe('verified long after');
  });

  it('a file found to hold too many turns after thousands of them is damaged, with no steps', async () => {
    const file = await longTask('too-many.jsonl', 3000);
    const loaded = await loadTaskFile(file, 'long', { maxBytes: Number.POSITIVE_INFINITY, maxTurns: 2500 });
    expect(loaded).toEqual({ kind: 'damaged', problem: 'it holds more than 2,500 turns, more than any task can take' });
  });

  it('a file that is gone reads as missing, and one too large as damaged without being read', async () => {
    expect(await loadTaskFile(path.join(dir, 'gone.jsonl'), 'long', UNLIMITED)).toEqual({ kind: 'missing' });
    const file = await longTask('large.jsonl', 10);
    const loaded = await loadTaskFile(file, 'long', { maxBytes: 100, maxTurns: Number.POSITIVE_INFINITY });
    expect(loaded.kind === 'damaged' && loaded.problem).toMatch(/larger than any task record/);
  });
});
