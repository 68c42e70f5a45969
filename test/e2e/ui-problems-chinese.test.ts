// Refusals in a Chinese window, in real Chromium: a broken flow file picked with "Flow file…" (ours, Maestro's, an
// empty one), and Settings' reasons for values main refuses. Each problem is worded in Chinese from its code, with
// its line and column or beside its field; no English sentence that is not a name, path, number or code is left.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { saveScreenshot, selectPhone } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';
import { latinSentences } from '../support/latin-sentences';

const ui = useUiFixture({ locale: 'zh-CN' });

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'amc-ui-problems-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openChinese(): Promise<{ page: Page; errors: string[] }> {
  const page = await ui.browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(ui.host.app.url);
  await page.getByText('已连接（web）').waitFor();
  return { page, errors };
}

/** Picks a file with "Flow file…" and reads the problems the window lists. */
async function refusedFlow(page: Page, name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  await page.getByTestId('flow-file-input').setInputFiles(file);
  const problems = page.getByTestId('flow-file-problems');
  await problems.filter({ hasText: name }).waitFor();
  return (await problems.innerText()).trim();
}

const expectNoEnglish = (text: string) => expect(latinSentences(text), text).toEqual([]);

describe('refusals in a Chinese window', { timeout: 120_000 }, () => {
  it("Scenario: A broken flow file picked in a Chinese window lists its problems in Chinese", async () => {
    await ui.host.harness.reset();
    const { page, errors } = await openChinese();
    await selectPhone(page, ui.host.harness.serial);

    const ours = await refusedFlow(page, 'broken.yaml', 'goal: Write a note\nsteps:\n  - launch_app: Notes\n  - tap: {}\n  - assert: {}\n');
    expect(ours).toContain('broken.yaml 没有运行');
    expect(ours).toContain('第 4 行，第 10 列：`tap` 需要一个目标（`text`、`desc`、`resourceId`、`hint` 或 `row`），或 `x` 和 `y`');
    expect(ours).toContain('第 5 行，第 13 列：`assert` 至少需要一个条件');
    expectNoEnglish(ours);

    const maestro = await refusedFlow(page, 'maestro.yaml', 'appId: com.example.notes\n---\n- launchApp\n- assertTrue: ${(COUNT == "3"}\n- takeScreenshot: ../home\n');
    expect(maestro).toContain('第 4 行，第 3 列：assertTrue：无法读取条件 "${(COUNT == "3"}"：有一个括号没有闭合');
    expect(maestro).toContain('第 5 行，第 3 列：takeScreenshot："../home" 用 ".." 跑出了本次运行的输出文件夹');
    expectNoEnglish(maestro);

    // An empty file is refused by the method's own input check: the field and why, in Chinese.
    const empty = await refusedFlow(page, 'empty.yaml', '');
    expect(empty).toContain('输入没有被接受：text：流程文件是空的。');
    expectNoEnglish(empty);
    await saveScreenshot(page, 'zh-CN-flow-file-problems-1280x800');

    expect((await ui.host.harness.state()).foreground).toBe('com.android.launcher3');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("Scenario: Settings' reasons for a refused value are Chinese in a Chinese window", async () => {
    const { page, errors } = await openChinese();
    await page.locator('header').getByRole('button', { name: '打开设置' }).click();
    const drawer = page.getByRole('dialog', { name: '设置' });
    const enabled = drawer.getByLabel('使用 AI 规划器');
    await enabled.waitFor();
    if (!(await enabled.isChecked())) await enabled.check();
    // Main's reasons (not the form's own check of a number): an address that is no URL, a model name far too long.
    await drawer.getByLabel('控制平面 URL').fill('control.example.com');
    const url = page.locator('[data-field="controlPlane.url"]').getByRole('alert');
    await url.waitFor();
    expect(await url.innerText()).toBe('必须是 HTTP(S) URL');
    await drawer.getByLabel('模型').fill('m'.repeat(300));
    const model = page.locator('[data-field="aiPlanner.model"]').getByRole('alert');
    await model.waitFor();
    expect(await model.innerText()).toBe('最多 200 个字符');
    expectNoEnglish(`${await url.innerText()}\n${await model.innerText()}`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
