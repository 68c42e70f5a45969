// @vitest-environment jsdom
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cleanup, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryListing } from '../../src/shared/contract';
import { i18nextFor } from '../../src/shared/i18n/translate';
import { createTaskStore, TASKS_FOLDER } from '../../src/core/storage/task-store';
import { latinSentences } from '../support/latin-sentences';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { HistoryPanel } from '../../src/renderer/src/components/history/HistoryPanel';
import { useHistoryStore } from '../../src/renderer/src/store/history-store';
import { FakeBridge } from './fake-bridge';

beforeEach(() => useHistoryStore.setState(useHistoryStore.getInitialState(), true));
afterEach(cleanup);

describe('history panel', () => {
  it('Scenario: Damaged history files are shown with their name and what to do', () => {
    useHistoryStore.getState().setListing({
      tasks: [],
      damaged: [
        {
          fileName: 'broken.jsonl',
          problem: 'it does not start with a task.started line, so it is not a task record',
          action: 'Move or delete /home/me/.config/amc/storage/tasks/broken.jsonl; it was left untouched.',
        },
      ],
    });
    render(
      <BridgeContext.Provider value={new FakeBridge({})}>
        <HistoryPanel />
      </BridgeContext.Provider>,
    );
    const notice = screen.getByRole('status', { name: 'Damaged history files' });
    expect(notice.textContent).toContain('One history file could not be read');
    const item = within(notice).getByRole('listitem');
    expect(item.textContent).toBe(
      'broken.jsonl: it does not start with a task.started line, so it is not a task record. Move or delete /home/me/.config/amc/storage/tasks/broken.jsonl; it was left untouched.',
    );
    expect(screen.getByTestId('history-empty')).toBeTruthy();
  });

  describe("in the reader's language", () => {
    let home: string;
    beforeEach(async () => {
      home = await mkdtemp(path.join(os.tmpdir(), 'amc-damaged-words-'));
    });
    afterEach(() => rm(home, { recursive: true, force: true }));

    /** A real history folder with a file for each reason the store gives, listed by the real store. */
    async function damagedListing(): Promise<HistoryListing> {
      const folder = path.join(home, TASKS_FOLDER);
      await mkdir(folder, { recursive: true });
      const started = JSON.stringify({ type: 'task.started', taskId: 'too-big', at: 1, goal: 'Open Settings', serial: 'emulator-5554', planner: { kind: 'scripted' }, maxSteps: 5 });
      await writeFile(path.join(folder, 'too-big.jsonl'), `${started}\n${'x'.repeat(2 * 1024 * 1024)}\n`);
      await writeFile(path.join(folder, 'no-start.jsonl'), '{"type":"step.observed"}\nsome words a person typed here\n');
      await writeFile(path.join(folder, 'not a task.jsonl'), 'hello\n');
      const store = createTaskStore(home, { maxBytes: 1024 * 1024, maxTurns: 10 });
      try {
        return await store.list();
      } finally {
        await store.close();
      }
    }

    function listIn(language: 'en' | 'zh-CN', listing: HistoryListing) {
      useHistoryStore.getState().setListing(listing);
      render(
        <I18nextProvider i18n={i18nextFor(language)}>
          <BridgeContext.Provider value={new FakeBridge({})}>
            <HistoryPanel />
          </BridgeContext.Provider>
        </I18nextProvider>,
      );
      return within(screen.getByTestId('history-damaged')).getAllByRole('listitem').map((item) => item.textContent!);
    }

    it("Scenario: A damaged history file's reason and what to do are worded in a Chinese window", async () => {
      const listing = await damagedListing();
      expect(listing.damaged.map((file) => file.fileName)).toEqual(['no-start.jsonl', 'not a task.jsonl', 'too-big.jsonl']);
      const items = listIn('zh-CN', listing);
      expect(items[0]).toContain('不是任务记录');
      expect(items[1]).toContain('文件名不是任务编号');
      expect(items[2]).toContain('比任何任务记录都大（最多 1 MB）');
      for (const item of items) {
        expect(item).toContain('请移走或删除');
        expect(latinSentences(item), item).toEqual([]);
      }
    });

    it('an English window keeps the English reasons', async () => {
      const listing = await damagedListing();
      const items = listIn('en', listing);
      expect(items[1]).toBe(`not a task.jsonl: its name is not a task id. Move or delete ${path.join(home, TASKS_FOLDER, 'not a task.jsonl')}; it was left untouched.`);
      expect(items[2]).toContain('too-big.jsonl: it is 2 MB, larger than any task record (at most 1 MB), so it is not read.');
    });
  });
});
