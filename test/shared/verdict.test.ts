import { describe, expect, it } from 'vitest';
import { applyTaskEvent, newTaskRecord, type TaskEvent, type TaskRecord } from '../../src/shared/task';
import { actedOnPhone, answerReadFrom, claimVerification, isQuestionGoal, taskVerdict, verdictOfEvents, TASK_VERDICTS } from '../../src/shared/verdict';
import { DENIED } from '../../src/shared/action-words';
import { actionCount, turnCount } from '../../src/shared/turns';
import { AI_PLANNER, settingsScene, TaskScript, tasksOfEachVerdict } from '../support/verdict-tasks';

/** The record the events fold to (the reducer every reader shares). */
function fold(events: readonly TaskEvent[]): TaskRecord {
  const first = events[0] as Extract<TaskEvent, { type: 'task.started' }>;
  return events.reduce(applyTaskEvent, newTaskRecord({ id: first.taskId, goal: first.goal, serial: first.serial, planner: first.planner, maxSteps: first.maxSteps, createdAt: first.at }));
}

/** What the runtime finds of a success claim: the turns up to the claim (the last one), and the closing words. */
const claimOf = (script: TaskScript, result: string) => claimVerification(fold(script.events), result);

const finishClaim = (reason: string) => ['finish_task', { success: true, reason }, null] as const;

describe('the verdict: one fold over the task events', () => {
  it('Scenario: Each way a task ends has one verdict', () => {
    const verdicts = Object.entries(tasksOfEachVerdict()).map(([expected, task]) => [expected, verdictOfEvents(task.events)]);
    expect(verdicts.map(([, got]) => got)).toEqual([...TASK_VERDICTS]);
    for (const [expected, got] of verdicts) expect(got).toBe(expected);
  });

  it('Scenario: A task still running has no verdict yet', () => {
    const running = new TaskScript('t-running', 'Open Wi-Fi').tap('Wi-Fi');
    expect(verdictOfEvents(running.events)).toBeNull();
    expect(taskVerdict({ status: 'pending', planner: AI_PLANNER })).toBeNull();
  });

  it('Scenario: Only something other than a person ending a task is an interruption', () => {
    const ended = { planner: AI_PLANNER };
    expect(taskVerdict({ ...ended, status: 'failed', failureSaid: { code: 'stop.neverFinished', values: {} } })).toBe('interrupted');
    expect(taskVerdict({ ...ended, status: 'cancelled', failureSaid: { code: 'stop.appClosed', values: {} } })).toBe('interrupted');
    expect(taskVerdict({ ...ended, status: 'cancelled', failureSaid: { code: 'stop.byPerson', values: {} } })).toBe('stopped');
    expect(taskVerdict({ ...ended, status: 'failed', failureSaid: { code: 'provider.timeout', values: {} } })).toBe('failed');
    expect(taskVerdict({ ...ended, status: 'failed' })).toBe('failed');
    expect(taskVerdict({ ...ended, status: 'cancelled' })).toBe('stopped');
  });

  it('Scenario: A completed task is done only when nothing stands against it', () => {
    expect(taskVerdict({ status: 'completed', planner: AI_PLANNER })).toBe('done');
    expect(taskVerdict({ status: 'completed', planner: AI_PLANNER, verification: { status: 'verified', check: 'screen-changed', fact: 'the screen changed' } })).toBe('done');
    expect(taskVerdict({ status: 'completed', planner: AI_PLANNER, verification: { status: 'not-verified', check: 'action-taken', fact: 'no action' } })).toBe('done-not-verified');
    expect(taskVerdict({ status: 'completed', planner: { kind: 'stub' } })).toBe('looked-only');
    // The built-in planner only looks, whatever a check says.
    expect(taskVerdict({ status: 'completed', planner: { kind: 'stub' }, verification: { status: 'not-verified', check: 'action-taken', fact: 'no action' } })).toBe('looked-only');
  });

  it('Scenario: A question, a hand-over, a denial or a wait is not an action', () => {
    const turn = (tool: string, outcome: Parameters<typeof actedOnPhone>[0]['outcome'], source: 'model' | 'skipped' = 'model') => ({
      planned: { tool, args: {}, rationale: null, thinking: null, usage: null, costUsd: null, source },
      outcome,
    });
    const ok = { ok: true, attempts: 0, durationMs: 0 };
    expect(actedOnPhone(turn('ask_user', { ...ok, fromPerson: 'Zed' }))).toBe(false);
    expect(actedOnPhone(turn('hand_over', { ...ok, fromPerson: 'I logged in' }))).toBe(false);
    expect(actedOnPhone(turn('wait', ok))).toBe(false);
    expect(actedOnPhone(turn('tap', { ok: false, error: DENIED, attempts: 0, durationMs: 0 }))).toBe(false);
    // A look sends nothing to the phone; a tap does; a flow step whose outcome already held was checked on the screen.
    expect(actedOnPhone(turn('describe_screen', ok))).toBe(false);
    expect(actedOnPhone(turn('tap', { ok: true, attempts: 1, durationMs: 20 }))).toBe(true);
    expect(actedOnPhone(turn('tap', ok, 'skipped'))).toBe(true);
    expect(actedOnPhone({ planned: null, outcome: null })).toBe(false);
    // The count every reader shows (the card's "0 actions", the CLI's, History's) agrees: only the tap is one.
    const task = new TaskScript('t-count', 'Call my friend')
      .question('Which friend?', 'Zed Quill')
      .step('hand_over', { reason: 'Unlock the phone' }, { ok: true, attempts: 0, durationMs: 0, fromPerson: 'Done' })
      .step('wait', { seconds: 2 }, { ok: true, attempts: 0, durationMs: 2000 })
      .step('tap', { element_id: 'e2' }, { ok: false, error: DENIED, attempts: 0, durationMs: 0 })
      .tap('Network & internet');
    expect([turnCount(fold(task.events)), actionCount(fold(task.events))]).toEqual([5, 1]);
  });

  it('Scenario: A claimed success with no action is not verified, whatever came before it', () => {
    const asked = new TaskScript('t-call', 'Call my friend').question('Which friend?', 'Zed Quill').step(...finishClaim('Calling Zed Quill'));
    expect(claimOf(asked, 'Calling Zed Quill')).toMatchObject({ status: 'not-verified', check: 'action-taken' });
    const waited = new TaskScript('t-wait', 'Open Wi-Fi').step('wait', { seconds: 2 }, { ok: true, attempts: 0, durationMs: 2000 }).step(...finishClaim('Wi-Fi is open'));
    expect(claimOf(waited, 'Wi-Fi is open')).toMatchObject({ status: 'not-verified', check: 'action-taken' });
    const denied = new TaskScript('t-deny', 'Send the message').step('tap', { element_id: 'e2' }, { ok: false, error: DENIED, attempts: 0, durationMs: 0 }).step(...finishClaim('Sent'));
    expect(claimOf(denied, 'Sent')).toMatchObject({ status: 'not-verified', check: 'action-taken' });
    // The claim's words repeat what the screen shows, but the goal asked for something to be done, not a question.
    const echoed = new TaskScript('t-echo', 'Open Network & internet').step(...finishClaim('Network & internet is open'));
    expect(claimOf(echoed, 'Network & internet is open')).toMatchObject({ status: 'not-verified', check: 'action-taken' });
  });

  it('Scenario: A question answered from the screen is done without an action', () => {
    const answered = new TaskScript('t-question', 'What Android version does this phone run?').step(...finishClaim('This phone runs Android 14'));
    expect(claimOf(answered, 'This phone runs Android 14')).toBeNull();
    // An answer the screen does not show is a guess.
    expect(claimOf(answered, 'This phone runs Android 15')).toMatchObject({ status: 'not-verified' });
  });

  it('Scenario: A claim after an action whose own check failed is not verified', () => {
    const unchecked = new TaskScript('t-unchecked', 'Open Network & internet').tap('Network & internet', false).step(...finishClaim('Opened'));
    expect(claimOf(unchecked, 'Opened')).toMatchObject({ status: 'not-verified', check: 'screen-changed', fact: 'the screen did not change' });
    const checked = new TaskScript('t-checked', 'Open Network & internet').tap('Network & internet', false).tap('Network & internet').step(...finishClaim('Opened'));
    expect(claimOf(checked, 'Opened')).toBeNull();
    // The runtime's Back after it (verified: it changed the screen) is not the agent's doing: the claim rests on the tap.
    const backed = new TaskScript('t-backed', 'Open Network & internet')
      .tap('Network & internet', false)
      .step('press_key', { key: 'back' }, { ok: true, attempts: 1, durationMs: 40, verification: { status: 'verified', check: 'screen-changed', fact: 'the screen changed' } }, { source: 'runtime' })
      .step(...finishClaim('Opened'));
    expect(claimOf(backed, 'Opened')).toMatchObject({ status: 'not-verified', fact: 'the screen did not change' });
  });

  it('Scenario: A replayed flow finishing is vouched for by its own checks, not judged as a claim', () => {
    const replay = new TaskScript('t-replay', 'Open Network & internet').step('finish_task', { success: true, reason: 'every step of the flow is done' }, null, { source: 'replayed' });
    expect(claimOf(replay, 'every step of the flow is done')).toBeNull();
  });

  it('Scenario: A goal that asks is a question, one that tells is not', () => {
    for (const goal of ['The battery level?', 'What Android version is this?', 'Which apps are installed', 'How much battery is left', 'Is Wi-Fi on?', '电池还剩多少', 'Wi-Fi 开着吗', 'Tell me the phone model']) expect(isQuestionGoal(goal), goal).toBe(true);
    for (const goal of ['Call my friend', 'Turn on Wi-Fi', 'Open Network & internet', '打开 Wi-Fi', 'Whatsapp Bob hello']) expect(isQuestionGoal(goal), goal).toBe(false);
  });

  it('Scenario: An answer is read from the screen only when it repeats a whole label of it', () => {
    expect(answerReadFrom(settingsScene, 'Android 14')).toBe(true);
    expect(answerReadFrom(settingsScene, 'Android 140')).toBe(false);
    expect(answerReadFrom(settingsScene, 'It is on')).toBe(false);
    expect(answerReadFrom(null, 'Android 14')).toBe(false);
    expect(answerReadFrom(settingsScene, '  ')).toBe(false);
    // A one-letter label is in every sentence: it proves nothing.
    const oneLetter = { ...settingsScene, elements: [{ id: 'e9', type: 'TextView', text: 'A', bounds: [0, 0, 10, 10] as [number, number, number, number] }] };
    expect(answerReadFrom(oneLetter, 'A note was written')).toBe(false);
    // A content description counts as a label.
    const described = { ...settingsScene, elements: [{ id: 'e9', type: 'ImageView', desc: 'Battery 80 percent', bounds: [0, 0, 10, 10] as [number, number, number, number] }] };
    expect(answerReadFrom(described, 'It shows Battery 80 percent')).toBe(true);
  });
});
