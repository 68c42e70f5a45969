// `amc flow check` and `amc flow run` in a Chinese terminal (LANG=zh_CN.UTF-8), run as a person runs them: a child
// process against the real adb server and the demo phone. Every problem of a broken flow file (ours and Maestro's),
// the header that counts them, and the step status words and counts of a run are Chinese; any English sentence left
// (not a name, path, number or code) fails.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { runAmc } from '../support/cli';
import { latinSentences } from '../support/latin-sentences';

let harness: AdbHarness;
let home: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(tmpdir(), 'amc-flow-chinese-'));
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

/** A Chinese terminal with no model: flow steps run without one. */
const env = () => ({ ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home, LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
const expectAllChinese = (text: string) => expect(latinSentences(text), text).toEqual([]);
/**
 * The flow's own lines of a run: its heading and a line per step, without what a step found (after " — "). The task's
 * turn lines before them, and what a step found, are the runner's own report, not worded here yet.
 */
const flowLines = (stdout: string, file: string) => {
  const lines = stdout.split('\n');
  return lines.slice(lines.findIndex((line) => line.startsWith(`流程 ${file}`))).map((line) => line.split(' — ')[0]).join('\n');
};

async function flowFile(name: string, text: string): Promise<string> {
  const file = path.join(home, name);
  await writeFile(file, text);
  return file;
}

describe('amc flow in a Chinese terminal', { timeout: 120_000 }, () => {
  it("Scenario: A broken flow file's problems and a flow run's step words are Chinese in a Chinese terminal", async () => {
    // Ours: a step that is no kind of step, a field of the wrong type, a variable with no value, a --var it lacks.
    const ours = await flowFile('坏流程.yaml', 'goal: Open ${app}\nsteps:\n  - tapp: {text: OK}\n  - launch_app: {app: Notes}\n  - wait: {seconds: many}\n');
    const checked = await runAmc(['flow', 'check', ours, '--var', 'who=Ann'], { env: env() });
    expect(checked.code).toBe(2);
    expect(checked.stderr).toContain(`${ours} 有 4 个问题：`);
    expect(checked.stderr).toContain('第 1 行第 7 列：`${app}` 没有值：在 `vars:` 下设置它，或给出 `--var app=VALUE`');
    expect(checked.stderr).toMatch(/第 3 行第 \d+ 列：`tapp` 不是一种步：每一步是一个工具（`tap, /);
    expect(checked.stderr).toContain('--var who：这个流程没有变量 `who`（它的变量：app）');
    expectAllChinese(checked.stderr);

    // Maestro's: a command amc does not run, a selector field it does not read, a variable with no value.
    const maestro = await flowFile('maestro.yaml', 'appId: com.example.notes\n---\n- launchApp\n- runScript: setup.js\n- tapOn:\n    text: Save\n    traits: button\n- inputText: ${NAME}\n');
    const maestroChecked = await runAmc(['flow', 'check', maestro], { env: env() });
    expect(maestroChecked.code).toBe(2);
    expect(maestroChecked.stderr).toContain(`${maestro} 有 3 个问题：`);
    expect(maestroChecked.stderr).toContain('第 4 行第 3 列：runScript：amc 不运行这条 Maestro 命令；整个流程被拒绝，而不是跳过它运行');
    expect(maestroChecked.stderr).toContain('第 5 行第 3 列：tapOn：amc 暂时不认识选择器字段 `traits`');
    expect(maestroChecked.stderr).toContain('`${NAME}` 没有值：在 `env:` 下设置它，或给出 `-e NAME=VALUE`');
    expectAllChinese(maestroChecked.stderr);

    // Maestro's with bad YAML: our words first, the YAML reader's own quoted after them.
    const badYaml = await flowFile('bad-yaml.yaml', 'appId: com.example.notes\n---\n- tapOn: "Save\n- back\n');
    const yamlChecked = await runAmc(['flow', 'check', badYaml], { env: env() });
    expect(yamlChecked.code).toBe(2);
    expect(yamlChecked.stderr).toMatch(/第 \d+ 行第 \d+ 列：不是有效的 YAML（YAML 读取器说：“.+”）/);
    expectAllChinese(yamlChecked.stderr);

    // A passing run and a failing one on the demo phone: the status words and counts.
    const passing = await flowFile('打开笔记.yaml', 'goal: 打开笔记\nsteps:\n  - launch_app: Notes\n  - press_key: back\n');
    const passed = await runAmc(['flow', 'run', passing, '-s', harness.serial], { env: env() });
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout).toContain(`流程 ${passing}：2 步中 2 步通过`);
    expect(passed.stdout).toMatch(/^ {2}通过 +1\. /m);
    expectAllChinese(flowLines(passed.stdout, passing));

    const failing = await flowFile('找不到按钮.yaml', 'goal: 点按不存在的按钮\nsteps:\n  - launch_app: Notes\n  - tap: {text: 不存在的按钮, timeout: 1500}\n  - press_key: back\n');
    const failed = await runAmc(['flow', 'run', failing, '-s', harness.serial], { env: env() });
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toContain(`流程 ${failing}：3 步中 1 步通过（1 步失败，1 步未运行）`);
    expect(failed.stdout).toMatch(/^ {2}失败 +2\. /m);
    expect(failed.stdout).toMatch(/^ {2}未运行 +3\. /m);
    expect((await harness.control<{ foreground: string }>('/state')).body.foreground).toMatch(/notes/);
    expectAllChinese(flowLines(failed.stdout, failing));
  });
});
