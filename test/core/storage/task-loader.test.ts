import { appendFile, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldTaskText, READ_CHUNK_BYTES, type TaskFileLimits, type TaskFileRead } from '../../../src/core/storage/task-file';
import { loadTaskFile } from '../../../src/core/storage/task-loader';
import type { TaskEvent } from '../../../src/shared/task';
import { isAction } from '../../../src/shared/turns';
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
    expect(loaded).toEqual({ kind: 'damaged', problem: { text: 'it holds more than 2,500 turns, more than any task can take', said: { code: 'taskFile.tooManyTurns', values: { max: '2,500' } } } });
  });

  it('a page of turns (the latest, one from the middle, one past the end) holds the whole fold\'s turns there and says how many there are', async () => {
    const file = await longTask('pages.jsonl', 1000);
    const whole = await foldWhole(file, 'long', UNLIMITED);
    if (whole.kind !== 'record') throw new Error(`not a record: ${whole.kind}`);
    const { steps, ...head } = whole.record;
    const actionCount = steps.filter(isAction).length;
    expect(actionCount).toBeGreaterThan(0);

    const latest = await loadTaskFile(file, 'long', UNLIMITED, { from: null, count: 200 });
    expect(latest).toEqual({ kind: 'record', record: { ...head, steps: steps.slice(800), page: { from: 800, turnCount: 1000, actionCount } } });
    const middle = await loadTaskFile(file, 'long', UNLIMITED, { from: 437, count: 150 });
    expect(middle).toEqual({ kind: 'record', record: { ...head, steps: steps.slice(437, 587), page: { from: 437, turnCount: 1000, actionCount } } });
    const past = await loadTaskFile(file, 'long', UNLIMITED, { from: 5000, count: 200 });
    expect(past.kind === 'record' && past.record.steps).toEqual([]);
    expect(past.kind === 'record' && past.record.page).toEqual({ from: 1000, turnCount: 1000, actionCount });
    // A page that holds every turn is the whole record, with no page.
    const short = await longTask('short.jsonl', 12);
    expect(await loadTaskFile(short, 'long', UNLIMITED, { from: null, count: 200 })).toEqual(await foldWhole(short, 'long', UNLIMITED));
  });

  it('Scenario: A history task file that changes between two pages is folded again', async () => {
    const file = await longTask('changing.jsonl', 600);
    const before = await loadTaskFile(file, 'long', UNLIMITED, { from: 0, count: 10 });
    expect(before.kind === 'record' && before.record.steps[0]!.outcome?.verification?.fact).not.toBe('verified between pages');
    await appendFile(file, `${JSON.stringify({ type: 'step.verified', taskId: 'long', at: 1_800_000_000_000, step: 1, verification: { status: 'verified', check: 'action-taken', fact: 'verified between pages' } } satisfies TaskEvent)}\n`);
    const after = await loadTaskFile(file, 'long', UNLIMITED, { from: 0, count: 10 });
    expect(after.kind === 'record' && after.record.steps[0]!.outcome?.verification?.fact).toBe('verified between pages');
    expect(after).toEqual(await foldWhole(file, 'long', UNLIMITED).then((read) => read.kind === 'record' ? { kind: 'record', record: { ...read.record, steps: read.record.steps.slice(0, 10), page: { from: 0, turnCount: 600, actionCount: read.record.steps.filter(isAction).length } } } : read));
    // Gone since: missing, not the record kept from before.
    await rm(file);
    expect(await loadTaskFile(file, 'long', UNLIMITED, { from: 0, count: 10 })).toEqual({ kind: 'missing' });
  });

  it('lines cut by the reads inside a character, and a line longer than two reads, read back as a fold of the whole text', async () => {
    let text = '';
    await writeLongTask(async (chunk) => void (text += chunk), 'long', 900, { finished: true });
    // Every rationale in Chinese and an emoji (3 and 4 bytes a character), so the reads' edges fall inside characters.
    text = text.replace(/"rationale":"Turn (\d+): scroll on\."/g, (_, step: string) => `"rationale":"第 ${step} 步：${'向上滑动，继续查找设置项。'.repeat(20)}🙂"`);
    // A foreign line of 2.5 MB (another task's), kept whole across the reads it spans and then skipped.
    const foreign = `${JSON.stringify({ type: 'step.planned', taskId: 'other', pad: '长'.repeat(900_000) })}\n`;
    const at = text.indexOf('\n', text.length / 2) + 1;
    text = text.slice(0, at) + foreign + text.slice(at);
    // Shift the bytes until the first read's edge falls inside a character (a continuation byte, 10xxxxxx).
    let bytes = Buffer.from(text);
    for (let pad = 1; (bytes[READ_CHUNK_BYTES]! & 0xc0) !== 0x80; pad += 1) bytes = Buffer.from(text.replace('"goal":"', `"goal":"${' '.repeat(pad)}`));
    const file = path.join(dir, 'multibyte.jsonl');
    await writeFile(file, bytes);
    expect(bytes.length).toBeGreaterThan(4 * READ_CHUNK_BYTES);

    const loaded = await loadTaskFile(file, 'long', UNLIMITED);
    expect(loaded).toEqual(foldTaskText(bytes.toString('utf8'), 'long', UNLIMITED));
    if (loaded.kind !== 'record') throw new Error(`not a record: ${loaded.kind}`);
    expect(loaded.record.steps).toHaveLength(900);
    expect(loaded.record.steps.every((step) => step.planned?.rationale?.endsWith('继续查找设置项。🙂'))).toBe(true);
  });

  it('a file that never ends (a link to /dev/zero, whose size reads 0) is damaged once it passes the size limit', async () => {
    const file = path.join(dir, 'endless.jsonl');
    await symlink('/dev/zero', file);
    const loaded = await loadTaskFile(file, 'long', { maxBytes: 5 * 1024 * 1024, maxTurns: Number.POSITIVE_INFINITY });
    expect(loaded.kind === 'damaged' && loaded.problem.text).toMatch(/^it is \d+ MB, larger than any task record \(at most 5 MB\)/);
  });

  it('a file that is gone reads as missing, and one too large as damaged without being read', async () => {
    expect(await loadTaskFile(path.join(dir, 'gone.jsonl'), 'long', UNLIMITED)).toEqual({ kind: 'missing' });
    const file = await longTask('large.jsonl', 10);
    const loaded = await loadTaskFile(file, 'long', { maxBytes: 100, maxTurns: Number.POSITIVE_INFINITY });
    expect(loaded.kind === 'damaged' && loaded.problem.text).toMatch(/larger than any task record/);
  });
});
