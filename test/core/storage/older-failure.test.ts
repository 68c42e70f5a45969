import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTaskStore, type TaskStore } from '../../../src/core/storage/task-store';
import { failureFromReason } from '../../../src/core/storage/older-failure';
import { failureWordsOf } from '../../../src/shared/task-failure';
import type { TaskEvent } from '../../../src/shared/task';
import { taskEvents } from './task-fixtures';

let home: string;
let store: TaskStore;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-older-failure-'));
  store = createTaskStore(home);
});

afterEach(async () => {
  await store.close();
  await rm(home, { recursive: true, force: true });
});

/** A task file as the app wrote it before failures were kept apart: its end has the D7 reason only. */
async function writeOlderFile(id: string, status: 'failed' | 'cancelled', failureReason: string) {
  const events = taskEvents(id);
  const finished = events.at(-1) as Extract<TaskEvent, { type: 'task.finished' }>;
  const { failure: _none, ...older } = { ...finished, status, failureReason, result: null };
  events[events.length - 1] = older;
  await mkdir(store.folder, { recursive: true });
  await writeFile(path.join(store.folder, `${id}.jsonl`), `${events.map((event) => JSON.stringify(event)).join('\n')}\n`);
}

describe('failures recorded before they were kept apart', () => {
  it('a D7 reason parts into the error name and its message; other reasons are no exception', () => {
    expect(failureFromReason('AdbError: No device "127.0.0.1:5555" is connected.')).toEqual({ error: 'AdbError', message: 'No device "127.0.0.1:5555" is connected.' });
    expect(failureFromReason('ToolCallUnavailable: Anthropic rejected the API key (HTTP 401); check the key')).toEqual({
      error: 'ToolCallUnavailable',
      message: 'Anthropic rejected the API key (HTTP 401); check the key',
    });
    expect(failureFromReason('Error: boom\n    at run (/srv/app.js:1:1)')).toEqual({ error: 'Error', message: 'boom\n    at run (/srv/app.js:1:1)' });
    // A wrapped cause's name was never part of the words.
    expect(failureFromReason('ToolCallUnavailable: TypeError: fetch failed')).toEqual({ error: 'ToolCallUnavailable', message: 'fetch failed' });
    // A model's or a person's reason, with a colon or a capital, is not an exception's.
    expect(failureFromReason('Wi-Fi: could not toggle')).toBeUndefined();
    expect(failureFromReason('There is no Calculator app on this phone')).toBeUndefined();
    expect(failureFromReason('token budget reached: 9,120 of 8,000 tokens used')).toBeUndefined();
  });

  it('Scenario: History written before failures were kept apart reads with the failure', async () => {
    await writeOlderFile('older-failed', 'failed', 'ToolCallUnavailable: OpenAI answered with a server error (HTTP 500): boom');
    await writeOlderFile('older-gave-up', 'failed', 'There is no Calculator app on this phone');
    await writeOlderFile('older-stopped', 'cancelled', 'Stopped by you');
    const reopened = createTaskStore(home);
    try {
      const record = await reopened.get('older-failed');
      expect(record?.failure).toEqual({ error: 'ToolCallUnavailable', message: 'OpenAI answered with a server error (HTTP 500): boom' });
      // The recorded reason itself is as it was written.
      expect(record?.failureReason).toBe('ToolCallUnavailable: OpenAI answered with a server error (HTTP 500): boom');
      expect(failureWordsOf(record!)).toBe('OpenAI answered with a server error (HTTP 500): boom');
      const summaries = new Map((await reopened.list()).tasks.map((summary) => [summary.id, summary]));
      expect(summaries.get('older-failed')?.failure).toEqual(record?.failure);
      expect(summaries.get('older-gave-up')?.failure).toBeUndefined();
      expect(failureWordsOf(summaries.get('older-gave-up')!)).toBe('There is no Calculator app on this phone');
      expect((await reopened.get('older-stopped'))?.failure).toBeUndefined();
    } finally {
      await reopened.close();
    }
  });
});
