// The fleet in a Chinese terminal (LANG=zh_CN.UTF-8): a real redis-server, an `amc worker` offering the demo phone on
// its adb server (no model: flow steps need none), and `amc submit --flow --wait` as a person runs it. Each job's
// line, its steps' status words and what each step found are Chinese, as is a worker's refusal of a hand-written
// flow payload; any English sentence left (not a name, path, number or code) fails.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetClient } from '../../src/fleet/client';
import { connectRedis, FLEET_PREFIX, phoneQueue } from '../../src/fleet/redis';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { childEnv, runAmc } from '../support/cli';
import { startAmcWorker, stopAmcWorker, writeFileIn, type AmcWorker } from '../support/fleet-worker';
import { latinSentences } from '../support/latin-sentences';
import { startTestRedis, type TestRedis } from '../support/redis-server';

let redis: TestRedis;
let harness: AdbHarness;
let home: string;
let dir: string;
let worker: AmcWorker | null = null;
let client: FleetClient;

const redisUrl = () => `redis://127.0.0.1:${redis.port}`;
/** A Chinese terminal on the harness's adb server, with no model configured. */
const chinese = () => childEnv({ ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home, LANG: 'zh_CN.UTF-8' });
/** The demo phone's own words (its notes and buttons) are names, not sentences. */
const PHONE_NAMES = ['Shopping list', 'Ideas', 'New note', 'Notes'];
const expectAllChinese = (text: string) => expect(latinSentences(text, PHONE_NAMES), text).toEqual([]);
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

beforeAll(async () => {
  redis = await startTestRedis();
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-fleet-chinese-home-'));
  dir = await mkdtemp(path.join(os.tmpdir(), 'amc-fleet-chinese-files-'));
  worker = await startAmcWorker(['--redis', redisUrl(), '--name', 'host-zh'], chinese());
  client = await FleetClient.open(new URL(redisUrl()));
}, 120_000);

afterAll(async () => {
  await client?.close();
  await stopAmcWorker(worker, 'SIGKILL');
  await harness?.stop();
  await redis?.dispose();
  for (const folder of [home, dir]) if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the fleet in a Chinese terminal', { timeout: 180_000 }, () => {
  it("Scenario: amc submit --wait words each job and its flow's steps in a Chinese terminal", async () => {
    const serial = escaped(harness.serial);
    const passing = await writeFileIn(dir, '打开笔记.yaml', 'goal: 打开笔记\nsteps:\n  - launch_app: Notes\n  - assert: {app: com.amc.notes}\n  - press_key: back\n');
    const passed = await runAmc(['submit', '--redis', redisUrl(), '--flow', passing, '--device', harness.serial, '--wait'], { env: chinese(), timeoutMs: 120_000 });
    expect(passed.code, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(new RegExp(`^任务 \\S+ 已排队，等手机 ${serial}。$`, 'm'));
    expect(passed.stdout).toMatch(new RegExp(`^${serial}：完成，3 步中 3 步通过（.+，在 host-zh 上；任务 \\S+）$`, 'm'));
    expect(passed.stdout).toMatch(/^ {4}通过 +1\. launch_app: Notes — com\.amc\.notes 在前台$/m);
    expect(passed.stdout).toMatch(/^ {4}通过 +2\. assert: \{ app: com\.amc\.notes \} — com\.amc\.notes 在前台$/m);
    expect(passed.stdout).toMatch(/^1 个中 1 个完成 — .*1 完成.*。$/m);
    expectAllChinese(passed.stdout);

    const failing = await writeFileIn(dir, '找不到按钮.yaml', 'goal: 点按不存在的按钮\nsteps:\n  - launch_app: Notes\n  - tap: {text: 不存在的按钮, timeout: 1500}\n  - press_key: back\n');
    const failed = await runAmc(['submit', '--redis', redisUrl(), '--flow', failing, '--device', harness.serial, '--wait'], { env: chinese(), timeoutMs: 120_000 });
    expect(failed.code, failed.stdout + failed.stderr).toBe(1);
    // The job's reason comes from the worker with its code, and is worded here.
    expect(failed.stdout).toMatch(new RegExp(`^${serial}：失败，3 步中 1 步通过（1 步失败，1 步未运行） — 第 2 步：这个屏幕上没有 “不存在的按钮”；我看到：.+（`, 'm'));
    expect(failed.stdout).toMatch(/^ {4}失败 +2\. tap: \{ text: 不存在的按钮, timeout: 1500 \} — 这个屏幕上没有 “不存在的按钮”；我看到：/m);
    expect(failed.stdout).toMatch(/^ {4}未运行 +3\. press_key: back — 未运行：前面有一步没有通过$/m);
    expect(failed.stdout).toMatch(/^1 个中 0 个完成 — .*1 失败.*。$/m);
    expectAllChinese(failed.stdout);
    expect((await harness.state()).foreground).toBe('com.amc.notes');
  });

  it("Scenario: A Chinese worker refuses a hand-written payload that is not a fleet job by the issue's code", async () => {
    const queueName = phoneQueue(harness.serial);
    const queue = new Queue(queueName, { connection: connectRedis(new URL(redisUrl())), prefix: FLEET_PREFIX });
    // Settings in front: the mismatched flow presses Home, which would show if the refused job ran.
    await harness.shell('am start -n com.android.settings/.Settings');
    try {
      const target = { kind: 'device', serial: harness.serial };
      const submittedAt = new Date().toISOString();
      // A goal that is a number, and a flow job whose goal is not its flow's (the schema's own check).
      const numbered = await queue.add('goal', { target, launchId: 'by-hand', submittedAt, goal: 42 });
      const flow = { goal: '关掉 Wi-Fi', steps: [{ tool: 'press_key', args: { key: 'home' } }] };
      const mismatched = await queue.add('flow', { target, launchId: 'by-hand', submittedAt, goal: '打开蓝牙', flow: { name: 'wifi', content: flow } });
      for (const [job, said] of [
        [numbered, /^任务被拒绝：goal：必须是文本$/],
        [mismatched, /^任务被拒绝：goal：流程任务的目标必须是它的流程的目标$/],
      ] as const) {
        await expect.poll(async () => (await client.view(queueName, job.id!))?.state, { timeout: 20_000 }).toBe('failed');
        const reason = (await client.view(queueName, job.id!))!.reason!;
        expect(reason).toMatch(said);
        expect(latinSentences(reason)).toEqual([]);
      }
      expect((await harness.state()).foreground).toBe('com.android.settings');
    } finally {
      await queue.close();
    }
  });

  it('Scenario: A Chinese worker refuses a hand-written bad flow payload with its problems in Chinese', async () => {
    await harness.reset({});
    await harness.shell('am start -n com.android.settings/.Settings');
    const queueName = phoneQueue(harness.serial);
    const queue = new Queue(queueName, { connection: connectRedis(new URL(redisUrl())), prefix: FLEET_PREFIX });
    try {
      // A tool that does not exist, and a type_text without its text: FlowSchema lets both through, the worker does not.
      const flying = { goal: 'Fly', steps: [{ tool: 'fly', args: {} }, { tool: 'type_text', args: {} }] };
      const job = await queue.add('flow', { target: { kind: 'device', serial: harness.serial }, launchId: 'by-hand', submittedAt: new Date().toISOString(), goal: 'Fly', flow: { name: 'fly', content: flying } });
      await expect.poll(async () => (await client.view(queueName, job.id!))?.state, { timeout: 20_000 }).toBe('failed');
      const reason = (await client.view(queueName, job.id!))!.reason!;
      expect(reason).toMatch(/^任务被拒绝：它的流程有 2 个问题：第 1 步：`fly` 不是工具；工具有 `[^`]+`；第 2 步：缺少 `text`（文本）$/);
      expect(latinSentences(reason)).toEqual([]);
      // Nothing ran on the phone.
      expect((await harness.state()).foreground).toBe('com.android.settings');
    } finally {
      await queue.close();
    }
  });

  it("Scenario: amc fleet and the fleet client's reasons are worded in a Chinese terminal", async () => {
    // A phone no worker offers: --wait tells why in Chinese, and a shorter --timeout ends the wait first, saying so.
    const nobody = await runAmc(['submit', '--redis', redisUrl(), '--goal', '打开无线网络', '--device', '10.9.9.9:5555', '--wait'], { env: chinese(), timeoutMs: 60_000 });
    expect(nobody.code, nobody.stdout + nobody.stderr).toBe(1);
    expect(nobody.stdout).toMatch(/^10\.9\.9\.9:5555：排队中 — 没有在线的工作端提供 10\.9\.9\.9:5555；任务会一直排队，直到有工作端提供它（用 `amc fleet` 查看设备队列）（任务 \S+）$/m);
    expectAllChinese(nobody.stdout);
    const timedOut = await runAmc(['submit', '--redis', redisUrl(), '--goal', '打开蓝牙', '--device', '10.9.9.9:5555', '--wait', '--timeout', '2'], { env: chinese(), timeoutMs: 60_000 });
    expect(timedOut.code, timedOut.stdout + timedOut.stderr).toBe(1);
    expect(timedOut.stdout).toMatch(/^10\.9\.9\.9:5555：排队中 — 等了给定的 2 秒，仍在排队；它会继续（用 `amc fleet` 查看设备队列）（任务 \S+）$/m);
    expectAllChinese(timedOut.stdout);

    // The overview: the worker, its phone's state, the counts, the waiting jobs and the ended ones, all in Chinese.
    const shown = await runAmc(['fleet', '--redis', redisUrl()], { env: chinese() });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^host-zh 在 \S+ 上$/m);
    expect(shown.stdout).toMatch(new RegExp(`^  ${escaped(harness.serial)}  就绪$`, 'm'));
    expect(shown.stdout).toMatch(/^任务：2 排队，0 进行中，/m);
    expect(shown.stdout).toMatch(/^ {2}排队中：打开蓝牙 — 10\.9\.9\.9:5555（任务 \S+）$/m);
    expect(shown.stdout).toMatch(/^ {2}\S+：失败 — 任务被拒绝：它的流程有 2 个问题：.+ — 流程 fly$/m);
    expectAllChinese(shown.stdout.replace(/\bFly\b/g, ''));

    // Its errors: a group nobody offers, a wrong address, a Redis that does not answer.
    const noGroup = await runAmc(['submit', '--redis', redisUrl(), '--goal', '打开蓝牙', '--group', '无人'], { env: chinese() });
    expect(noGroup.code).toBe(2);
    expect(noGroup.stderr).toMatch(/^amc submit: 现在没有工作端提供设备组 "无人" 里的手机（用 `amc fleet` 查看设备队列）$/m);
    const wrongScheme = await runAmc(['fleet', '--redis', 'http://127.0.0.1:1'], { env: chinese() });
    expect(wrongScheme.code).toBe(2);
    expect(wrongScheme.stderr).toMatch(/^amc fleet: --redis：Redis 地址应当以 `redis:\/\/` 或 `rediss:\/\/`（TLS）开头，而不是 `http:\/\/`$/m);
    const unreachable = await runAmc(['fleet', '--redis', 'redis://127.0.0.1:1'], { env: chinese(), timeoutMs: 30_000 });
    expect(unreachable.code).toBe(1);
    // A refused connection names its error code; a machine too busy to see the refusal in time says that none answered.
    expect(unreachable.stderr).toMatch(
      /^amc fleet: (连不上设备队列在 redis:\/\/127\.0\.0\.1:1 的 Redis（ECONNREFUSED）|设备队列在 redis:\/\/127\.0\.0\.1:1 的 Redis 5 秒内没有应答)；请检查地址、那里是否运行着 Redis，以及它的密码/m,
    );
    for (const text of [noGroup.stderr, wrongScheme.stderr, unreachable.stderr]) expectAllChinese(text);

    // A fleet schedule for any free phone, every minute: when and where it runs are Chinese too.
    const added = await runAmc(['schedule', 'add', '--redis', redisUrl(), '--name', '每分钟检查', '--goal', '打开蓝牙', '--any', '--every', '60'], { env: chinese() });
    expect(added.code, added.stderr).toBe(0);
    const listed = await runAmc(['schedule', 'list', '--redis', redisUrl()], { env: chinese() });
    expect(listed.stdout).toMatch(/^每分钟检查：每 60 秒 — 打开蓝牙，在 任意一台空闲手机 上；下次 /m);
    for (const text of [added.stdout, listed.stdout]) expectAllChinese(text);
    expect(await client.removeSchedule('每分钟检查')).toBe(true);
  });
});
