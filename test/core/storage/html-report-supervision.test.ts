import { describe, expect, it } from 'vitest';
import { renderTaskReport } from '../../../src/core/storage/html-report';
import { applyTaskEvent, newTaskRecord, type TaskEvent } from '../../../src/shared/task';
import { taskEvents } from './task-fixtures';

/** The fixture's task with a question, its answer, a held action the person denied and a guard decision, all through the one reducer. */
function supervisedRecord() {
  const at = 1_700_000_000_000;
  const events = taskEvents('s1', at);
  const extra: TaskEvent[] = [
    { type: 'person.asked', taskId: 's1', at: at + 21, step: 1, requestId: 'q1', request: { kind: 'question', question: 'Which <b>network</b>?' } },
    { type: 'person.answered', taskId: 's1', at: at + 22, step: 1, requestId: 'q1', reply: { kind: 'answer', text: 'Home' }, by: 'person' },
    {
      type: 'person.asked',
      taskId: 's1',
      at: at + 23,
      step: 1,
      requestId: 'c1',
      request: { kind: 'confirmation', tool: 'tap', args: { element_id: 'e2' }, rationale: null, reasons: ['it taps "Send"'], target: { elementId: 'e2', label: 'Button "Send"' } },
    },
    { type: 'person.answered', taskId: 's1', at: at + 24, step: 1, requestId: 'c1', reply: { kind: 'deny' }, by: 'person' },
    { type: 'guard.decided', taskId: 's1', at: at + 25, step: 1, guard: 'loop', finding: 'repeat', decision: 'warn', message: 'tap e2 3 times, the screen did not change', by: 'runtime' },
  ];
  const ordered = [...events.slice(0, 3), ...extra, ...events.slice(3)];
  const start = events[0] as Extract<TaskEvent, { type: 'task.started' }>;
  const initial = newTaskRecord({ id: 's1', goal: start.goal, serial: start.serial, planner: start.planner, maxSteps: start.maxSteps, createdAt: at });
  return ordered.reduce(applyTaskEvent, initial);
}

describe('HTML report of a supervised task', () => {
  it('Scenario: The HTML report lists questions, answers, confirmations and guard decisions with who decided and when', () => {
    const html = renderTaskReport(supervisedRecord());
    expect(html).toContain('Questions, decisions and guards');
    expect(html).toContain('The agent asked: Which &lt;b&gt;network&lt;/b&gt;?');
    expect(html).toMatch(/Answered: Home<\/td><td>the person<\/td>/);
    expect(html).toMatch(/Confirmation asked to tap &#39;Send&#39;: it taps &quot;Send&quot;/);
    expect(html).toMatch(/Denied<\/td><td>the person<\/td>/);
    expect(html).toMatch(/Guard \(loop, warn\): tap e2 3 times, the screen did not change<\/td><td>the runtime<\/td>/);
    expect(html).toContain('unknown (the model is not in the price table)');
    expect(html).not.toMatch(/<script/i);
  });
});
