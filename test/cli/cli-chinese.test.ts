// Every `amc` command a person reads in a Chinese terminal, run for real against the demo phone and the Anthropic
// fake: `amc run` with a question and a yes asked on the terminal, its summary, `amc devices`, `amc flow check`,
// `amc schedule` and the `serve` banner. Any English sentence left (not a name, path, number or code) fails.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { amcBin, anthropicDirectEnv, runAmc, startAmc } from '../support/cli';
import { startInPty } from '../support/pty';
import { latinSentences } from '../support/latin-sentences';
import { finish, findElement, startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';

let harness: AdbHarness;
let fake: AnthropicFake;
let home: string;

/** The model asks in Chinese, as the prompt tells it to (the fake refuses to go on without that line). */
const QUESTION = '要打开哪个应用？';
const askThenOpen: FakePolicy = (turn) => {
  if (!turn.system.includes('The person reads Simplified Chinese (zh-CN)')) return finish(false, 'the prompt did not name the person\'s language');
  if (turn.scene?.screen.package.includes('contacts')) return finish(true, '通讯录已打开');
  if (!turn.allText.includes('通讯录')) return { kind: 'call', tool: 'ask_user', args: { question: QUESTION } };
  const icon = findElement(turn.scene, 'Contacts');
  return { kind: 'call', tool: 'tap', args: { element_id: icon?.id ?? 'e1' }, text: '对方说要通讯录。' };
};

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: (turn) => askThenOpen(turn) });
  home = await mkdtemp(path.join(tmpdir(), 'amc-chinese-'));
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await harness?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

/** A terminal in Chinese: LANG set, nothing from the machine to win over it. */
const env = (extra: NodeJS.ProcessEnv = {}) => anthropicDirectEnv(harness, home, fake.url, { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '', ...extra });
/** Names a person reads as they are: the app's own name, and apps and labels on the demo phone. */
const NAMES = ['Agentic Mobile Control', 'Contacts', 'Pixel'];
const expectAllChinese = (text: string) => expect(latinSentences(text, NAMES), text).toEqual([]);

describe('amc in a Chinese terminal', { timeout: 180_000 }, () => {
  it('Scenario: Every amc command a person reads is Chinese in a Chinese terminal', async () => {
    // amc run at a terminal: the model's question, an action held for a yes (step mode), the turns and the summary.
    const session = startInPty([process.execPath, amcBin, 'run', '-s', harness.serial, '--goal', '打开我说的应用'], env({ TASK_CONFIRM_ACTIONS: 'every' }));
    await session.waitFor(/你的回答：/);
    session.type('通讯录\r');
    await session.waitFor(/允许吗？/);
    session.type('y\r');
    const run = await session.done;
    expect(run.output).toContain(`智能体问：${QUESTION}`);
    expect(run.output).toContain('暂停原因：逐步模式：每个操作都等你同意');
    expect(run.output).toMatch(/^完成（\d+ 个操作，.*）：通讯录已打开$/m);
    expect(run.output).toContain('守卫（策略，询问，由策略决定）：点按 “Contacts” 需要你的同意：逐步模式：每个操作都等你同意');
    expect(run.code).toBe(0);
    expect((await harness.state()).foreground).toMatch(/contacts/);
    expectAllChinese(run.output);

    const devices = await runAmc(['devices'], { env: env() });
    expect(devices.stdout).toContain(`${harness.serial}  就绪`);
    expectAllChinese(devices.stdout);

    const flow = path.join(home, '打开通讯录.yaml');
    await writeFile(flow, 'goal: Open Contacts\nvars:\n  who: Ann\nsteps:\n  - launch_app: Contacts\n');
    const checked = await runAmc(['flow', 'check', flow], { env: env() });
    expect(checked.stdout).toContain('没有问题 — 1 步');
    expectAllChinese(checked.stdout.replace('Open Contacts', ''));

    const noSchedules = await runAmc(['schedule', 'list'], { env: env() });
    expect(noSchedules.stdout.trim()).toBe('没有计划任务。');
    const added = await runAmc(['schedule', 'add', '--name', '早上', '--cron', '0 8 * * *', '--goal', '打开通讯录', '--device', harness.serial], { env: env() });
    expect(added.code, added.stderr).toBe(0);
    const listed = await runAmc(['schedule', 'list'], { env: env() });
    expect(listed.stdout).toContain('早上：0 8 * * * — 打开通讯录');
    for (const output of [added.stdout, listed.stdout]) expectAllChinese(output);

    const serve = await startAmc(['serve', '--port', '0'], /按 Ctrl-C 停止。/, { env: env() });
    serve.child.kill('SIGINT');
    expect(serve.output()).toMatch(/Agentic Mobile Control 正在 http:\/\/127\.0\.0\.1:\d+\/\S* 提供服务/);
    expectAllChinese(serve.output());

    // No phone: the reason and what to do, in Chinese.
    await harness.adb(['disconnect', harness.serial]);
    const none = await runAmc(['run', '--goal', '打开通讯录'], { env: env() });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('没有就绪的手机');
    const noDevices = await runAmc(['devices'], { env: env() });
    expect(noDevices.stdout).toContain('上没有设备');
    for (const output of [none.stderr, noDevices.stdout]) expectAllChinese(output);
  });

  it('Scenario: amc act words a failed action from its code in a Chinese terminal', async () => {
    await harness.connect();
    await harness.reset();
    const act = (...args: string[]) => runAmc(['act', '-s', harness.serial, 'tap', ...args], { env: env() });
    const missing = await act('--element_id', 'e999');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^失败：这一轮的屏幕布局里没有元素 e999（编号：e1 到 e\d+）。编号每一轮都会变。$/m);
    const outside = await act('--x', '5000', '--y', '3');
    expect(outside.stderr).toMatch(/^失败：点 \(5000, 3\) 在 \d+x\d+ 的屏幕之外；坐标是设备像素。$/m);
    const noTarget = await act();
    expect(noTarget.stderr).toContain('失败：tap 需要 element_id，或同时给出 x 和 y。');
    for (const output of [missing.stderr, outside.stderr, noTarget.stderr]) expectAllChinese(output);
    // An English terminal keeps the words it had.
    const english = await runAmc(['act', '-s', harness.serial, 'tap', '--element_id', 'e999'], { env: env({ LANG: 'en_US.UTF-8' }) });
    expect(english.stderr).toMatch(/^failed: There is no element e999 in this turn's Scene \(ids: e1 to e\d+\)\. Ids change every turn\.$/m);
    // Nothing reached the phone.
    expect((await harness.state()).foreground).toBe('com.android.launcher3');
  });
});
