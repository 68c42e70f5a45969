import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FoldedRecords } from '../../../src/core/storage/folded-records';
import { readTaskFile, TASK_FILE_LIMITS } from '../../../src/core/storage/task-file';
import { taskEvents } from './task-fixtures';

// The history worker keeps the records it folded so a long task read page by page is folded once; what it keeps
// must never be older than the file, nor kept without end.
describe('Scenario: The history worker keeps the two records read last and lets them go when no one reads', () => {
  let dir: string;
  const folds: string[] = [];
  const counting: typeof readTaskFile = (file, taskId, limits) => {
    folds.push(path.basename(file));
    return readTaskFile(file, taskId, limits);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'amc-folded-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    folds.length = 0;
    vi.useRealTimers();
  });

  async function task(name: string): Promise<string> {
    const file = path.join(dir, `${name}.jsonl`);
    await writeFile(file, taskEvents(name).map((event) => `${JSON.stringify(event)}\n`).join(''));
    return file;
  }

  it('an unchanged file is folded once; a file that grew is folded again', async () => {
    const records = new FoldedRecords({ size: 2, idleMs: 60_000, fold: counting });
    const file = await task('same');
    const first = await records.read(file, 'same', TASK_FILE_LIMITS);
    expect(await records.read(file, 'same', TASK_FILE_LIMITS)).toBe(first);
    expect(folds).toEqual(['same.jsonl']);
    await appendFile(file, `${JSON.stringify({ type: 'task.paused', taskId: 'same', at: 1_700_000_000_100, step: 1 })}\n`);
    const grown = await records.read(file, 'same', TASK_FILE_LIMITS);
    expect(grown).not.toBe(first);
    expect(folds).toEqual(['same.jsonl', 'same.jsonl']);
  });

  it('the two used last are kept: a third file lets the oldest go', async () => {
    const records = new FoldedRecords({ size: 2, idleMs: 60_000, fold: counting });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map(task));
    await records.read(a!, 'a', TASK_FILE_LIMITS);
    await records.read(b!, 'b', TASK_FILE_LIMITS);
    // Reading a again makes b the oldest.
    await records.read(a!, 'a', TASK_FILE_LIMITS);
    await records.read(c!, 'c', TASK_FILE_LIMITS);
    expect(records.count).toBe(2);
    await records.read(a!, 'a', TASK_FILE_LIMITS);
    await records.read(b!, 'b', TASK_FILE_LIMITS);
    expect(folds).toEqual(['a.jsonl', 'b.jsonl', 'c.jsonl', 'b.jsonl']);
  });

  it('a deleted file reads as missing, and nothing is kept once no one has read for a while', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const records = new FoldedRecords({ size: 2, idleMs: 60_000, fold: counting });
    const gone = await task('gone');
    await records.read(gone, 'gone', TASK_FILE_LIMITS);
    await rm(gone);
    expect(await records.read(gone, 'gone', TASK_FILE_LIMITS)).toEqual({ kind: 'missing' });
    expect(records.count).toBe(0);

    const kept = await task('kept');
    await records.read(kept, 'kept', TASK_FILE_LIMITS);
    vi.advanceTimersByTime(59_000);
    expect(records.count).toBe(1);
    // A read puts the time off again.
    await records.read(kept, 'kept', TASK_FILE_LIMITS);
    vi.advanceTimersByTime(59_000);
    expect(records.count).toBe(1);
    vi.advanceTimersByTime(2_000);
    expect(records.count).toBe(0);
    expect(folds).toEqual(['gone.jsonl', 'kept.jsonl']);
  });
});
