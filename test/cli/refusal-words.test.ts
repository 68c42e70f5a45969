// A refused action's reason in the reader's language: which action, and that the person said no (or that no one could
// answer), on the demo phone (real adb server, real adbkit) with `amc flow run` in a Chinese terminal and its JUnit
// file, and the same task's HTML report in Chinese. Any English sentence left in these reasons fails.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, runAmc } from '../support/cli';
import { startInPty } from '../support/pty';
import { latinSentences } from '../support/latin-sentences';
import { createTaskStore } from '../../src/core/storage/task-store';
import { renderTaskReport } from '../../src/core/storage/html-report';
import { wordsFor } from '../../src/shared/i18n/translate';

let harness: AdbHarness;
let home: string;
let dir: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(tmpdir(), 'amc-refusal-home-'));
  dir = await mkdtemp(path.join(tmpdir(), 'amc-refusal-files-'));
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  for (const folder of [home, dir]) if (folder) await rm(folder, { recursive: true, force: true });
});

/** A Chinese terminal with the AI planner off: every action waits for a yes (step mode). */
const chinese = () => ({ ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home, LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '', TASK_CONFIRM_ACTIONS: 'every' });
/** Names a person reads as they are: the app on the phone, the flow's own lines. */
const NAMES = ['Notes', 'launch_app'];
const expectAllChinese = (text: string) => expect(latinSentences(text, NAMES), text).toEqual([]);
const FLOW = 'goal: Open Notes\nsteps:\n  - launch_app: Notes\n  - assert: {app: com.amc.notes}\n';
/** The failed step's reason on its line (its status word is the terminal's language: 失败 in Chinese). */
const failedLine = (output: string) => output.split('\n').find((line) => /(FAILED|失败) +1\./.test(line))!.replace(/^.*(FAILED|失败) +1\. launch_app: Notes — /, '');
const failureMessage = (xml: string) => /<failure message="([^"]*)"/.exec(xml)![1]!;

describe('a refusal in the reader\'s language', { timeout: 120_000 }, () => {
  it('Scenario: A refused action says in Chinese which action and that the person said no, in the step line and the JUnit file', async () => {
    await harness.reset({});
    const file = path.join(dir, 'refused.yaml');
    await writeFile(file, FLOW);
    const junit = path.join(dir, 'refused.xml');
    const session = startInPty([process.execPath, amcBin, 'flow', 'run', file, '-s', harness.serial, '--junit', junit], chinese());
    await session.waitFor(/允许吗？/);
    session.type('n\r');
    const { code, output } = await session.done;
    expect(code).toBe(1);
    const line = failedLine(output);
    expect(line).toBe('你拒绝了打开 Notes，所以它没有执行');
    expectAllChinese(line);
    const message = failureMessage(await readFile(junit, 'utf8'));
    expect(message).toBe('你拒绝了打开 Notes，所以它没有执行');
    expect((await harness.state()).foreground).toBe('com.android.launcher3');
  });

  it('Scenario: A refused action says in Chinese that no one could answer, in the step line, the JUnit file, the summary and the report', async () => {
    await harness.reset({});
    const file = path.join(dir, 'unanswered.yaml');
    await writeFile(file, FLOW);
    const junit = path.join(dir, 'unanswered.xml');
    // No terminal: nobody can give the yes.
    const result = await runAmc(['flow', 'run', file, '-s', harness.serial, '--junit', junit], { env: chinese() });
    expect(result.code).toBe(1);
    const line = failedLine(result.stdout);
    expect(line).toMatch(/^打开 Notes需要有人同意（逐步模式：每个操作都等你同意），但没有人能回答：`amc run` 没有可以提问的命令行窗口（或以 `--json` 运行）；`--yes` 会同意每个操作$/);
    expectAllChinese(line);
    expect(failureMessage(await readFile(junit, 'utf8'))).toBe(line);
    // The task's summary line and its HTML report, read back from history, say the same in Chinese.
    const summary = result.stdout.split('\n').find((text) => text.includes('需要有人同意') && !text.includes('FAILED'))!;
    expect(summary).toContain(line);
    const store = createTaskStore(home);
    try {
      const [task] = (await store.list()).tasks;
      const record = (await store.get(task!.id))!;
      expect(record.failureSaid?.code).toBe('refusal.noOneAnswered');
      const report = renderTaskReport(record, wordsFor('zh-CN'));
      expect(report).toContain('打开 Notes需要有人同意');
      expect(report).not.toContain('no one can answer');
      expect(report).not.toContain("needs a person's yes");
    } finally {
      await store.close();
    }
    expect((await harness.state()).foreground).toBe('com.android.launcher3');
  });
});
