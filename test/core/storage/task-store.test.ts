import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_REASON, createTaskStore, type TaskStore } from '../../../src/core/storage/task-store';
import { taskEvents } from './task-fixtures';

let home: string;
let store: TaskStore;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-store-'));
  store = createTaskStore(home);
});

afterEach(async () => {
  await store.close();
  await rm(home, { recursive: true, force: true });
});

async function record(taskStore: TaskStore, events: ReturnType<typeof taskEvents>) {
  for (const event of events) await taskStore.append(event);
}

describe('task store', () => {
  it('Scenario: A finished task is listed with its summary and read back with every turn', async () => {
    await record(store, taskEvents('t1'));
    const [summary] = (await store.list()).tasks;
    expect(summary).toMatchObject({
      id: 't1',
      goal: 'Open Wi-Fi settings',
      serial: '127.0.0.1:5600',
      status: 'completed',
      steps: 1,
      durationMs: 1960,
      usage: { inputTokens: 2500, outputTokens: 70 },
    });
    const task = await store.get('t1');
    expect(task?.steps.map((s) => s.planned?.tool)).toEqual(['tap', 'finish_task']);
    expect(task?.steps[0]?.planned?.rationale).toBe('The Wi-Fi row opens the Wi-Fi page.');
    expect(task?.steps[0]?.outcome?.target?.elementId).toBe('e2');
    expect(task?.result).toBe('Wi-Fi is open');
  });

  it('Scenario: Stored history is read back after the store reopens', async () => {
    await record(store, taskEvents('older', 1_000));
    await record(store, taskEvents('newer', 2_000));
    await store.close();
    const reopened = createTaskStore(home);
    expect((await reopened.list()).tasks.map((s) => s.id)).toEqual(['newer', 'older']);
    expect((await reopened.get('older'))?.steps).toHaveLength(2);
  });

  it('Scenario: A torn last line after a crash is ignored', async () => {
    const events = taskEvents('torn');
    await record(store, events.slice(0, 4));
    const file = path.join(store.folder, 'torn.jsonl');
    // A crash in the middle of a write leaves half a line behind.
    await appendFile(file, JSON.stringify(events[4]).slice(0, 37));
    const afterCrash = createTaskStore(home);
    const task = await afterCrash.get('torn');
    expect(task?.steps).toHaveLength(1);
    expect(task?.steps[0]?.outcome?.ok).toBe(true);
    expect(task?.status).toBe('failed');
    expect(task?.failureReason).toBe(INTERRUPTED_REASON);
    const [summary] = (await afterCrash.list()).tasks;
    expect(summary).toMatchObject({ id: 'torn', status: 'failed', steps: 1 });
  });

  it('a running task reads back as running while it is being written', async () => {
    await record(store, taskEvents('live').slice(0, 3));
    expect((await store.get('live'))?.status).toBe('running');
    await expect(store.delete('live')).rejects.toThrow(/still running/);
  });

  it('Scenario: Stored tasks never contain screenshot bytes', async () => {
    const events = taskEvents('nobytes');
    // Even if a caller sneaks image bytes into an event, only the schema's fields reach the disk.
    const observed = { ...events[1]!, screenshotBytes: 'iVBORw0KGgoAAAANSUhEUg', screenshot: { ...(events[1] as { screenshot: object }).screenshot, data: 'iVBORw0KGgo' } };
    await record(store, [events[0]!, observed as never, ...events.slice(2)]);
    const text = await readFile(path.join(store.folder, 'nobytes.jsonl'), 'utf8');
    expect(text).not.toContain('iVBORw0KGgo');
    expect(text.trim().split('\n')).toHaveLength(events.length);
  });

  it('deletes a task and refuses ids that are not plain names', async () => {
    await record(store, taskEvents('gone'));
    expect(await store.delete('gone')).toBe(true);
    expect(await store.delete('gone')).toBe(false);
    expect(await store.get('gone')).toBeUndefined();
    expect(await readdir(store.folder)).toEqual([]);
    await expect(store.get('../settings')).rejects.toThrow(/not a task id/);
  });

  it('refuses events of a task whose start was not recorded, and a reused id', async () => {
    const events = taskEvents('x');
    await expect(store.append(events[1]!)).rejects.toThrow(/not being recorded/);
    await record(store, events);
    await expect(store.append(events[0]!)).rejects.toThrow(/already stored/);
  });
});

describe('damaged history', () => {
  it('Scenario: Unreadable history files are listed as damaged with their name and an action', async () => {
    await record(store, taskEvents('good'));
    await writeFile(path.join(store.folder, 'garbage.jsonl'), 'sk-live-SECRET not a task\n');
    await writeFile(path.join(store.folder, 'bad.name.jsonl'), '');
    // A folder where a task file should be: it exists, but cannot be read as one.
    await mkdir(path.join(store.folder, 'folder.jsonl'));
    const listing = await createTaskStore(home).list();
    expect(listing.tasks.map((task) => task.id)).toEqual(['good']);
    const action = (name: string) => `Move or delete ${path.join(store.folder, name)}; it was left untouched.`;
    const actionSaid = (name: string) => ({ code: 'taskFile.moveOrDelete', values: { path: path.join(store.folder, name) } });
    expect(listing.damaged).toEqual([
      { fileName: 'bad.name.jsonl', problem: 'its name is not a task id', problemSaid: { code: 'taskFile.notTaskId', values: {} }, action: action('bad.name.jsonl'), actionSaid: actionSaid('bad.name.jsonl') },
      {
        fileName: 'folder.jsonl',
        problem: 'it cannot be read (EISDIR)',
        problemSaid: { code: 'taskFile.unreadable', values: { error: 'EISDIR' } },
        action: action('folder.jsonl'),
        actionSaid: actionSaid('folder.jsonl'),
      },
      {
        fileName: 'garbage.jsonl',
        problem: 'it does not start with a task.started line, so it is not a task record',
        problemSaid: { code: 'taskFile.notTaskRecord', values: {} },
        action: action('garbage.jsonl'),
        actionSaid: actionSaid('garbage.jsonl'),
      },
    ]);
    expect(JSON.stringify(listing)).not.toContain('sk-live');
    expect(await readFile(path.join(store.folder, 'garbage.jsonl'), 'utf8')).toContain('not a task');
  });
});
