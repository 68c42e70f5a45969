// Files damaged on disk, met in a Chinese window in real Chromium: the schedules file that is not JSON, as the window
// loads; a History task whose file is damaged (or turned unreadable) after History listed it, opened from its row; the
// notes file that is not JSON and a plan cache of the wrong shape, in Settings. Each reason and what to do is worded from its code, with no English sentence left beyond
// names, paths and code.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TASKS_FOLDER } from '../../src/core/storage/task-store';
import { NOTES_FILE } from '../../src/core/storage/notes-store';
import { PLAN_CACHE_FILE } from '../../src/core/storage/plan-cache-store';
import { SCHEDULES_FILE } from '../../src/core/storage/schedule-store';
import { taskEvents } from '../core/storage/task-fixtures';
import { latinSentences } from '../support/latin-sentences';
import { useUiFixture } from '../support/ui-fixture';
import { openConnectedPage, saveScreenshot } from './ui-support';

const ui = useUiFixture({ locale: 'zh-CN' });
const expectChinese = (text: string) => expect(latinSentences(text, ['JSON']), text).toEqual([]);
const taskFile = (id: string) => path.join(ui.host.home, TASKS_FOLDER, `${id}.jsonl`);

beforeAll(async () => {
  await mkdir(path.join(ui.host.home, TASKS_FOLDER), { recursive: true });
  for (const [index, id] of ['damaged-later', 'unreadable-later'].entries()) {
    const events = taskEvents(id, 1_700_000_000_000 + index * 60_000);
    await writeFile(taskFile(id), `${events.map((event) => JSON.stringify(event)).join('\n')}\n`);
  }
  await writeFile(path.join(ui.host.home, NOTES_FILE), '{"version":1,"notes":[');
  await writeFile(path.join(ui.host.home, PLAN_CACHE_FILE), JSON.stringify({ version: 1, entries: [{ goal: 42 }] }));
  await writeFile(path.join(ui.host.home, SCHEDULES_FILE), '{"schedules": [');
});

describe('damaged files in a Chinese window', { timeout: 120_000 }, () => {
  it('Scenario: A History task that cannot be shown, and damaged notes and plan cache files, are worded in a Chinese window', async () => {
    const { page, errors } = await openConnectedPage(ui);
    // The schedules file, read as the window loads: what is wrong and what to do.
    const banner = page.getByTestId('error-banner');
    await banner.getByText(/^计划任务文件 /).waitFor();
    const schedules = (await banner.innerText()).trim();
    expect(schedules).toMatch(/计划任务文件 \S+schedules\.json 不是 JSON；请修正它或把它移走（什么都没有改动）/);
    expectChinese(schedules);
    await page.getByRole('tab', { name: '历史' }).click();
    await page.locator('[data-testid="history-row"][data-task-id="unreadable-later"]').waitFor();

    // Listed, then damaged on disk: one no longer starts with its task.started line, the other is now a folder.
    await writeFile(taskFile('damaged-later'), '{"type":"nonsense"}\n');
    await rm(taskFile('unreadable-later'));
    await mkdir(taskFile('unreadable-later'));

    await page.locator('[data-testid="history-row"][data-task-id="damaged-later"] .history-open').click();
    await banner.getByText('无法显示任务“damaged-later”').waitFor();
    const damaged = (await banner.innerText()).trim();
    expect(damaged).toContain('无法显示任务“damaged-later”：它不是以 `task.started` 行开头的，所以不是任务记录。请移走或删除');
    expect(damaged).toContain('damaged-later.jsonl；它没有被改动。');
    expectChinese(damaged);

    await page.locator('[data-testid="history-row"][data-task-id="unreadable-later"] .history-open').click();
    await banner.getByText('无法显示任务“unreadable-later”').waitFor();
    const unreadable = (await banner.innerText()).trim();
    expect(unreadable).toMatch(/无法显示任务“unreadable-later”：它无法读取（EISDIR）。请移走或删除 \S+unreadable-later\.jsonl；它没有被改动。/);
    expectChinese(unreadable);
    await saveScreenshot(page, 'zh-CN-history-cannot-be-shown-1280x800');

    await page.locator('header').getByRole('button', { name: '打开设置' }).click();
    const notes = page.getByTestId('app-notes').getByRole('alert');
    await notes.waitFor();
    const notesText = (await notes.innerText()).trim();
    expect(notesText).toMatch(/^应用笔记文件 \S+app-notes\.json 不是有效的 JSON；请修正或删除它。它没有被改动，在那之前任务运行时不带笔记。$/);
    expectChinese(notesText);
    const cache = page.getByTestId('plan-cache').getByRole('alert');
    await cache.waitFor();
    const cacheText = (await cache.innerText()).trim();
    expect(cacheText).toMatch(/^复用运行的文件 \S+plan-cache\.json 不是复用运行的文件（entries\.0\.goal：必须是文本）；请修正或删除它。它没有被改动，在那之前不会复用任何运行。$/);
    expectChinese(cacheText);
    await saveScreenshot(page, 'zh-CN-damaged-notes-and-plan-cache-1280x800');
    expect(errors).toEqual([]);
    await page.close();
  });
});
