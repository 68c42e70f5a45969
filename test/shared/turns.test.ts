import { describe, expect, it } from 'vitest';
import { applyTaskEvent, newTaskRecord, type TaskEvent, type TaskRecord } from '../../src/shared/task';
import { DENIED } from '../../src/shared/action-words';
import { actionCount, turnCount } from '../../src/shared/turns';
import { launchRowOf } from '../../src/shared/launch';
import { stepCountsLabel } from '../../src/shared/task-words';
import { summaryOf } from '../../src/core/storage/task-store';
import { renderTaskReport } from '../../src/core/storage/html-report';
import { TaskScript } from '../support/verdict-tasks';

function fold(events: readonly TaskEvent[]): TaskRecord {
  const first = events[0] as Extract<TaskEvent, { type: 'task.started' }>;
  return events.reduce(applyTaskEvent, newTaskRecord({ id: first.taskId, goal: first.goal, serial: first.serial, planner: first.planner, maxSteps: first.maxSteps, createdAt: first.at }));
}

describe('turns and actions: one vocabulary', () => {
  it('Scenario: Every reader counts turns and actions alike', () => {
    // Six turns: a question, a hand-over, a wait, a denied tap, a tap and a tap that failed; the last two are actions.
    const script = new TaskScript('t-vocab', 'Call my friend')
      .question('Which friend?', 'Zed Quill')
      .step('hand_over', { reason: 'Unlock the phone' }, { ok: true, attempts: 0, durationMs: 0, fromPerson: 'Done' })
      .step('wait', { seconds: 2 }, { ok: true, attempts: 0, durationMs: 2000 })
      .step('tap', { element_id: 'e2' }, { ok: false, error: DENIED, attempts: 0, durationMs: 0 })
      .tap('Network & internet')
      .step('tap', { element_id: 'e3' }, { ok: false, error: 'no element e3 in this Scene', attempts: 0, durationMs: 1 });
    const record = fold(script.events);
    expect([turnCount(record), actionCount(record)]).toEqual([6, 2]);
    // History's row, a launch's row and the HTML report say the same numbers.
    expect(summaryOf(record).steps).toBe(2);
    expect(launchRowOf(record).steps).toBe(2);
    expect(renderTaskReport(record)).toContain(stepCountsLabel(2, 6));
    // A record read a page at a time (its last two turns) still counts every turn and action.
    const paged: TaskRecord = { ...record, steps: record.steps.slice(-2), page: { from: 4, turnCount: 6, actionCount: 2 } };
    expect([turnCount(paged), actionCount(paged)]).toEqual([6, 2]);
    expect(summaryOf(paged).steps).toBe(2);
    expect(renderTaskReport(paged)).toContain(stepCountsLabel(2, 6));
  });
});
