// A fleet schedule BullMQ refuses, on a real redis-server: cron patterns its cron reader cannot take (a value out of
// range, a stray character, an unknown name, a step of 0, a backward range, a day no month has) are said by our own
// codes, and a refusal we do not know (a key another Redis writer left of the wrong type) is our sentence with
// BullMQ's words quoted after it. A Chinese terminal reads each in Chinese; English keeps "the schedule was refused".
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetClient, FleetRequestError } from '../../src/fleet/client';
import { ANY_QUEUE, connectRedis, FLEET_PREFIX, QUEUES_KEY } from '../../src/fleet/redis';
import { wordsFor } from '../../src/shared/i18n/translate';
import { saidWords } from '../../src/shared/supervision-words';
import { runAmc } from '../support/cli';
import { latinSentences } from '../support/latin-sentences';
import { startTestRedis, type TestRedis } from '../support/redis-server';

let redis: TestRedis;
let client: FleetClient;
const zh = wordsFor('zh-CN');
const redisUrl = () => `redis://127.0.0.1:${redis.port}`;
const JOB = { goal: '打开设置', yes: false, answers: [] };

beforeAll(async () => {
  redis = await startTestRedis();
  client = await FleetClient.open(new URL(redisUrl()));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await redis?.dispose();
});

/** What adding a schedule with `cron` was refused with (it must be refused). */
async function refusal(name: string, cron: string): Promise<FleetRequestError> {
  const error = await client.addSchedule(name, { cron }, JOB, { any: true }).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, cron).toBeInstanceOf(FleetRequestError);
  return error as FleetRequestError;
}

describe('a fleet schedule BullMQ refuses', { timeout: 120_000 }, () => {
  it("Scenario: A fleet schedule BullMQ refuses is told by its code in the reader's language", async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['0 25 * * *', 'the schedule was refused: "0 25 * * *" has 25 in a field that takes 0 to 23', /“0 25 \* \* \*”中有 25，而那个字段只取 0 到 23/],
      ['0 7 * * x', 'the schedule was refused: "0 7 * * x" has "x"', /“0 7 \* \* x”中有“x”，它不是定时表达式能用的/],
      ['0 7 * * mon-xyz', 'the schedule was refused: "0 7 * * mon-xyz" names "xyz"', /中的“xyz”不是月份或星期的名称/],
      ['*/0 7 * * *', 'the schedule was refused: "*/0 7 * * *" steps by 0', /的步长是 0/],
      ['0 9-5 * * *', 'the schedule was refused: "0 9-5 * * *" has the range 9-5, which runs backwards', /中的范围 9-5 是倒着的/],
      ['0 7 30 2 *', 'the schedule was refused: "0 7 30 2 *" names a day that month never has', /指定的日子在那个月份里从来没有/],
    ];
    for (const [cron, english, chinese] of cases) {
      const error = await refusal('早上', cron);
      expect(error.message, cron).toContain(english);
      expect(error.said?.code, cron).not.toBe('fleetSchedule.refused');
      const worded = saidWords(error.message, error.said, zh);
      expect(worded, cron).toMatch(chinese);
      expect(worded.startsWith('计划任务被拒绝：'), worded).toBe(true);
      expect(latinSentences(worded), worded).toEqual([]);
    }
    expect(await client.schedules()).toEqual([]);

    // Another Redis writer left the queue's schedulers key as a string: BullMQ's own words follow ours, quoted.
    const raw = new Redis(redisUrl());
    try {
      await raw.set(`${FLEET_PREFIX}:${ANY_QUEUE}:repeat`, 'not a sorted set');
      const error = await refusal('夜里', '0 22 * * *');
      expect(error.message).toMatch(/^the schedule was refused: .*WRONGTYPE/);
      expect(error.said?.code).toBe('fleetSchedule.refused');
      const worded = saidWords(error.message, error.said, zh);
      expect(worded).toMatch(/^计划任务被拒绝。BullMQ 的原话：“.*WRONGTYPE.*”$/);
      expect(latinSentences(worded), worded).toEqual([]);
    } finally {
      await raw.del(`${FLEET_PREFIX}:${ANY_QUEUE}:repeat`);
      await raw.quit();
    }

    // As a person meets it: `amc schedule add --redis` in a Chinese terminal, and in an English one.
    const args = ['schedule', 'add', '--redis', redisUrl(), '--name', '早上', '--cron', '0 25 * * *', '--goal', '打开设置', '--any'];
    const inChinese = await runAmc(args, { env: { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' } });
    expect(inChinese.code, inChinese.stderr).toBe(2);
    const line = inChinese.stderr.split('\n')[0]!;
    expect(line).toBe('amc schedule: 计划任务被拒绝：“0 25 * * *”中有 25，而那个字段只取 0 到 23');
    expect(latinSentences(line)).toEqual([]);
    const inEnglish = await runAmc(args, { env: { LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' } });
    expect(inEnglish.stderr.split('\n')[0]).toBe('amc schedule: the schedule was refused: "0 25 * * *" has 25 in a field that takes 0 to 23');
  });

  it("Scenario: A job or schedule whose payload is not a fleet job is named in the reader's language", async () => {
    // Another Redis writer queues a job and a schedule whose payloads are not fleet jobs (a goal that is a number).
    const queue = new Queue(ANY_QUEUE, { connection: connectRedis(new URL(redisUrl())), prefix: FLEET_PREFIX });
    const raw = new Redis(redisUrl());
    try {
      await raw.sadd(QUEUES_KEY, ANY_QUEUE);
      await queue.add('goal', { goal: 42 });
      await queue.upsertJobScheduler('foreign', { every: 3_600_000 }, { name: 'goal', data: { goal: 42 } });
      const chinese = { env: { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' } };
      const english = { env: { LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' } };
      for (const args of [['fleet', '--redis', redisUrl()], ['schedule', 'list', '--redis', redisUrl()]]) {
        const inChinese = await runAmc(args, chinese);
        expect(inChinese.code, inChinese.stderr).toBe(0);
        expect(inChinese.stdout).toContain('（不是设备队列任务）');
        expect(latinSentences(inChinese.stdout), inChinese.stdout).toEqual([]);
        const inEnglish = await runAmc(args, english);
        expect(inEnglish.stdout).toContain('(not a fleet job)');
      }
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      await raw.quit();
    }
  });
});
