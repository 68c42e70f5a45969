// Files of the data folder damaged on disk, read by `amc` in a Chinese terminal (LANG=zh_CN.UTF-8): the notes file,
// the plan cache and the schedules file, each not JSON, of the wrong shape, too large or unreadable (a folder where
// the file should be). Each reason is worded from its code with what to do, the field's path kept; the system's own
// text follows ours, quoted. An English terminal prints the words it always printed, and the file is left as it was.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOTES_FILE } from '../../src/core/storage/notes-store';
import { PLAN_CACHE_FILE } from '../../src/core/storage/plan-cache-store';
import { SCHEDULES_FILE } from '../../src/core/storage/schedule-store';
import { runAmc } from '../support/cli';
import { latinSentences } from '../support/latin-sentences';

let home = '';
beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'amc-damaged-files-'));
  await mkdir(path.join(home, 'storage'), { recursive: true });
});
afterEach(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

const env = (lang: string) => ({ LANG: lang, LC_ALL: '', LC_MESSAGES: '', AMC_HOME: home, HOME: home, ANDROID_ADB_SERVER_PORT: '1' });
/** The reason's line (before the log file's name, which is a path). */
const reasonOf = (stderr: string) => stderr.trim().split('\n')[0]!;

/** Damages `file` as `damage` says, runs `args` in both languages and checks each reads as it should. */
async function expectWorded(file: string, damage: string | 'folder', args: string[], chinese: RegExp, english: string): Promise<void> {
  const where = `amc ${args.join(' ')} (${path.basename(file)}: ${damage.slice(0, 30)})`;
  await rm(file, { recursive: true, force: true });
  if (damage === 'folder') await mkdir(file);
  else await writeFile(file, damage);
  const zh = await runAmc(args, { env: env('zh_CN.UTF-8') });
  expect(zh.code, `${where}: ${zh.stderr}`).not.toBe(0);
  const line = reasonOf(zh.stderr);
  expect(line, where).toMatch(chinese);
  expect(latinSentences(line), `${where}:\n${line}`).toEqual([]);
  const en = await runAmc(args, { env: env('en_US.UTF-8') });
  expect(en.code, `${where}: ${en.stderr}`).not.toBe(0);
  expect(reasonOf(en.stderr), where).toContain(english);
  // Nothing was written over the damaged file.
  if (damage !== 'folder') expect(await readFile(file, 'utf8')).toBe(damage);
}

describe('damaged files in a Chinese terminal', { timeout: 120_000 }, () => {
  it("Scenario: A damaged notes, plan cache or schedules file is worded with what to do in a Chinese terminal", async () => {
    const notes = path.join(home, NOTES_FILE);
    await expectWorded(notes, '{"version":1,"notes":[', ['notes'], /应用笔记文件 \S+app-notes\.json 不是有效的 JSON；请修正或删除它。它没有被改动，在那之前任务运行时不带笔记。/, `The notes file ${notes} is not valid JSON; fix or delete it.`);
    await expectWorded(
      notes,
      JSON.stringify({ version: 1, notes: [{ id: 'n1', app: 'com.android.settings' }] }),
      ['notes'],
      /应用笔记文件 \S+ 不是应用笔记文件（notes\.0\.\w+：.+）；请修正或删除它。/,
      `The notes file ${notes} is not a notes file (notes.0.goal: Invalid input: expected string, received undefined); fix or delete it.`,
    );
    await expectWorded(notes, JSON.stringify([1, 2]), ['notes'], /应用笔记文件 \S+ 不是应用笔记文件（整个文件：/, 'is not a notes file (the whole file: ');
    await expectWorded(notes, `{"version":1,"notes":[],"pad":"${'x'.repeat(4 * 1024 * 1024)}"}`, ['notes'], /应用笔记文件 \S+ 大于 4096 KB；/, 'is larger than 4096 KB; fix or delete it.');

    const cache = path.join(home, PLAN_CACHE_FILE);
    await expectWorded(cache, 'folder', ['cache', 'list'], /复用运行的文件 \S+plan-cache\.json 无法读取（系统的原话：“EISDIR[^”]*”）；请修正或删除它。它没有被改动，在那之前不会复用任何运行。/, `The plan cache file ${cache} cannot be read (EISDIR`);
    await expectWorded(cache, JSON.stringify({ version: 2, entries: [] }), ['cache', 'list'], /复用运行的文件 \S+ 不是复用运行的文件（version：/, `The plan cache file ${cache} is not a plan cache file (version: Invalid input: expected 1); fix or delete it.`);

    const schedules = path.join(home, SCHEDULES_FILE);
    await expectWorded(schedules, '{"schedules": [', ['schedule', 'list'], /计划任务文件 \S+schedules\.json 不是 JSON；请修正它或把它移走（什么都没有改动）/, `the schedules file ${schedules} is not JSON; fix it or move it away (nothing was changed)`);
    await expectWorded(schedules, JSON.stringify({ schedules: 'every morning' }), ['schedule', 'list'], /计划任务文件 \S+ 已损坏（schedules：.+）；请修正它或把它移走/, `the schedules file ${schedules} is damaged (schedules: Invalid input: expected array, received string); fix it or move it away (nothing was changed)`);
    await expectWorded(schedules, 'folder', ['schedule', 'list'], /计划任务文件 \S+ 无法读取（系统的原话：“EISDIR”）/, `the schedules file ${schedules} cannot be read (EISDIR)`);
  });
});
