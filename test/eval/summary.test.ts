import { describe, expect, it } from 'vitest';
import { median, summarize, wilsonInterval } from '../../src/eval/summary';
import { PHONE_TASKS } from '../../src/eval/tasks/index';
import { applyTaskEvent, newTaskRecord, type TaskEvent } from '../../src/shared/task';
import { TASK_VERDICTS } from '../../src/shared/verdict';
import { renderEvalHtml, renderTable } from '../../src/eval/render';
import { AI_PLANNER, tasksOfEachVerdict } from '../support/verdict-tasks';

describe('eval scores', () => {
  it('Scenario: The success rate carries a Wilson interval', () => {
    // Reference values of the 95% Wilson score interval.
    const close = (value: number, expected: number) => expect(value).toBeCloseTo(expected, 3);
    const none = wilsonInterval(0, 31);
    expect(none.low).toBe(0);
    close(none.high, 0.1103);
    const all = wilsonInterval(31, 31);
    close(all.low, 0.8897);
    close(all.high, 1);
    const half = wilsonInterval(5, 10);
    close(half.low, 0.2366);
    close(half.high, 0.7634);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
    for (let passed = 0; passed <= 7; passed++) {
      const { low, high } = wilsonInterval(passed, 7);
      expect(low).toBeGreaterThanOrEqual(0);
      expect(high).toBeLessThanOrEqual(1);
      expect(low).toBeLessThanOrEqual(passed / 7);
      expect(high).toBeGreaterThanOrEqual(passed / 7);
    }
  });

  it('median of odd, even and empty lists', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});

describe('the eval report and the verdict', () => {
  it("Scenario: Each eval attempt carries the task's verdict beside the validator's judgement", () => {
    const tasks = tasksOfEachVerdict();
    const attempts = TASK_VERDICTS.map((verdict, index) => {
      const { events } = tasks[verdict];
      const first = events[0] as Extract<TaskEvent, { type: 'task.started' }>;
      const record = events.reduce(applyTaskEvent, newTaskRecord({ id: first.taskId, goal: first.goal, serial: first.serial, planner: first.planner, maxSteps: first.maxSteps, createdAt: first.at }));
      const task = { ...PHONE_TASKS[0]!, id: `task-${index}` };
      return { task, attempt: 1, success: verdict === 'done', verdict: 'judged on the phone', record, hostMs: 0 };
    });
    const report = summarize({ attempts, planner: AI_PLANNER, price: null, startedAt: 0, wallMs: 1, parallel: 1, repeat: 1, complete: true });
    expect(report.tasks.map((task) => task.attempts[0]!.outcome)).toEqual([...TASK_VERDICTS]);
    // The question was no action: the not-verified run took none, as the window and the CLI count it.
    expect(report.tasks[1]!.attempts[0]!.steps).toBe(0);
    // A run that failed on an exception keeps its message; the error's class name reaches no reader.
    const failedAt = TASK_VERDICTS.indexOf('failed');
    expect(report.tasks[failedAt]!.attempts[0]!.failureReason).toBe('There is no Bluetooth switch on this phone');
    for (const shown of [JSON.stringify(report), renderTable(report), renderEvalHtml(report)]) expect(shown).not.toContain('TaskFailedError');
  });
});
