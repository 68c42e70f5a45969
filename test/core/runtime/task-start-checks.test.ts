// Every check of a request carries its code, custom checks included: a refused task start (`taskStart.invalid`) words
// each of its issues in the reader's language, and the schemas' own checks (a variable named like an object's
// machinery, a schedule's name, a fleet job whose goal is not its flow's) give theirs, never English words alone.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TaskRunner, TaskStartError } from '../../../src/core/runtime/task-runner';
import { createStubPlanner } from '../../../src/core/runtime/stub-planner';
import { FleetJobSchema } from '../../../src/fleet/job';
import { FlowVarNameSchema } from '../../../src/shared/flow';
import { ScheduleNameSchema } from '../../../src/shared/schedule';
import { issueSaid } from '../../../src/shared/issue-said';
import { SaidSchema, wordSaid, type Said } from '../../../src/shared/said';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { latinSentences } from '../../support/latin-sentences';
import { FakeExecutor, FakeObserver } from './doubles';

const zh = wordsFor('zh-CN');

/** Every code a message holds, its nested `…Said` lists included. */
function codesIn(said: Said): string[] {
  const nested = Object.entries(said.values)
    .filter(([name]) => name.endsWith('Said'))
    .flatMap(([, value]) => z.array(SaidSchema).parse(JSON.parse(String(value))).flatMap(codesIn));
  return [said.code, ...nested];
}

describe('every check carries its code', () => {
  it('Scenario: Every check of a refused task start and every custom check of a schema carries its code', async () => {
    const runner = new TaskRunner({ observer: new FakeObserver(), executor: new FakeExecutor(), plannerSource: async () => ({ planner: createStubPlanner(), maxSteps: 30 }) });
    const refused = await runner
      .start({ serial: ' ', goal: 'x'.repeat(2001), maxSteps: 0, allowedApps: ['!Settings'], launchId: '' })
      .then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(TaskStartError);
    const { message, said } = refused as TaskStartError;
    expect(said?.code).toBe('taskStart.invalid');
    const codes = codesIn(said!);
    expect(codes.filter((code) => code === 'input.at')).toHaveLength(5);
    expect(codes).not.toContain('input.verbatim');
    const chinese = wordSaid(message, said, zh);
    expect(chinese).toContain('allowedApps.0：');
    expect(latinSentences(chinese), chinese).toEqual([]);

    // The schemas' own checks: English as it always read, a code beside it, Chinese from that code.
    const checks: Array<[z.ZodType, unknown, string, string]> = [
      [FlowVarNameSchema, 'constructor', '`constructor` is a name every JavaScript object already has, so it cannot name a variable; pick another name', '是每个 JavaScript 对象本来就有的名字'],
      [ScheduleNameSchema, '!!', 'a name starts with a letter or a digit and has only letters, digits, spaces, dots, dashes or underscores', '名字以文字或数字开头'],
      [ScheduleNameSchema, '  ', 'give it a name', '请起一个名字'],
      [
        FleetJobSchema,
        { target: { kind: 'any' }, launchId: 'by-hand', submittedAt: new Date().toISOString(), goal: 'Open Settings', flow: { name: 'wifi', content: { goal: 'Turn off Wi-Fi', steps: [{ tool: 'press_key', args: { key: 'home' } }] } } },
        "a flow job's goal must be its flow's goal",
        '流程任务的目标必须是它的流程的目标',
      ],
    ];
    for (const [schema, value, english, chineseWords] of checks) {
      const issue = schema.safeParse(value).error!.issues[0]!;
      expect(issue.message).toBe(english);
      const coded = issueSaid(issue);
      expect(coded.code, english).not.toBe('input.verbatim');
      const worded = wordSaid(issue.message, coded, zh);
      expect(worded).toContain(chineseWords);
      expect(latinSentences(worded), worded).toEqual([]);
    }
  });
});
