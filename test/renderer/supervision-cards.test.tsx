// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { PendingRequestPanel } from '../../src/renderer/src/components/supervision/PendingRequestPanel';
import { ResumeNote } from '../../src/renderer/src/components/supervision/ResumeNote';
import { TaskSupervision } from '../../src/renderer/src/components/supervision/TaskSupervision';
import { UsageMeter } from '../../src/renderer/src/components/supervision/UsageMeter';
import { StepCard } from '../../src/renderer/src/components/timeline/StepCard';
import type { PendingRequest, TaskRecord } from '../../src/shared/task';
import { FakeBridge } from './fake-bridge';
import { directAnthropic, finishedTask, tapStep } from './fixtures';

afterEach(cleanup);

const waiting = (pending: PendingRequest): TaskRecord => finishedTask([tapStep()], { status: 'running', pending, result: null, finishedAt: null });

function renderPanel(task: TaskRecord) {
  const bridge = new FakeBridge({ 'tasks.reply': () => ({ accepted: true, reason: null }) });
  render(
    <BridgeContext.Provider value={bridge}>
      <PendingRequestPanel task={task} />
    </BridgeContext.Provider>,
  );
  return bridge;
}

describe('supervision cards', () => {
  it('Scenario: The question card sends the typed answer on Enter and keeps Shift+Enter for a new line', async () => {
    const bridge = renderPanel(waiting({ requestId: 'q1', step: 2, at: 1, request: { kind: 'question', question: 'Which Alice?' } }));
    expect(screen.getByTestId('question-text').textContent).toBe('Which Alice?');
    const box = screen.getByLabelText('Your answer');
    fireEvent.change(box, { target: { value: 'Alice Smith' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(bridge.callsOf('tasks.reply')).toEqual([]);
    fireEvent.keyDown(box, { key: 'Enter' });
    await expect.poll(() => bridge.callsOf('tasks.reply')).toEqual([{ taskId: 't-1', requestId: 'q1', reply: { kind: 'answer', text: 'Alice Smith' } }]);
  });

  it('Scenario: The confirmation card outlines the target on the wireframe and sends Allow, Deny or Allow for the rest', async () => {
    const bridge = renderPanel(
      waiting({
        requestId: 'c1',
        step: 2,
        at: 1,
        request: {
          kind: 'confirmation',
          tool: 'tap',
          args: { element_id: 'e2' },
          rationale: 'Adding starts here.',
          reasons: ['step mode: every action waits for a yes'],
          target: { elementId: 'e2', label: 'Button "Add contact"' },
        },
      }),
    );
    expect(screen.getByTestId('confirmation-action').textContent).toBe('Tap \'Add contact\' tap(element_id="e2")');
    expect(screen.getByTestId('confirmation-why').textContent).toBe('Held because: step mode: every action waits for a yes');
    expect(document.querySelector('rect.wf-target')?.getAttribute('data-element-id')).toBe('e2');
    fireEvent.click(screen.getByRole('button', { name: 'Allow for the rest of this task' }));
    await expect.poll(() => (screen.getByRole('button', { name: 'Deny' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    await expect.poll(() => bridge.callsOf('tasks.reply').length).toBe(2);
    expect(bridge.callsOf('tasks.reply').map((input) => (input as { reply: unknown }).reply)).toEqual([{ kind: 'allow', scope: 'task' }, { kind: 'deny' }]);
  });

  it('Scenario: Deny and stop on the confirmation card ends the task without the action', async () => {
    const bridge = renderPanel(
      waiting({
        requestId: 'c2',
        step: 3,
        at: 1,
        request: { kind: 'confirmation', tool: 'launch_app', args: { app: 'Bank' }, rationale: null, reasons: ['step mode: every action waits for a yes'], target: null },
      }),
    );
    expect(screen.getByTestId('confirmation-action').textContent).toBe('Open Bank launch_app(app="Bank")');
    fireEvent.click(screen.getByRole('button', { name: 'Deny and stop' }));
    await expect.poll(() => bridge.callsOf('tasks.reply').length).toBe(1);
    expect((bridge.callsOf('tasks.reply')[0] as { reply: unknown }).reply).toEqual({ kind: 'stop' });
  });

  it('Scenario: The hand-over panel continues with the note or stops', async () => {
    const bridge = renderPanel(waiting({ requestId: 'h1', step: 2, at: 1, request: { kind: 'hand-over', reason: 'Log in to the bank app' } }));
    expect(screen.getByTestId('hand-over-reason').textContent).toBe('Log in to the bank app');
    fireEvent.change(screen.getByLabelText('Note for the agent (optional)'), { target: { value: 'I logged in' } });
    fireEvent.click(screen.getByRole('button', { name: 'Done, continue' }));
    await expect.poll(() => (screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await expect.poll(() => bridge.callsOf('tasks.reply').length).toBe(2);
    expect(bridge.callsOf('tasks.reply').map((input) => (input as { reply: unknown }).reply)).toEqual([{ kind: 'continue', note: 'I logged in' }, { kind: 'stop' }]);
  });

  it('Scenario: Tokens and cost so far are shown, and no cost for a model without a price', () => {
    const { rerender } = render(<UsageMeter task={finishedTask([tapStep()], { costUsd: 0.0123, status: 'running', finishedAt: null })} />);
    expect(screen.getByTestId('usage-meter').textContent).toBe('So far: 3,000 tokens in · 150 out · cost $0.012');
    rerender(<UsageMeter task={finishedTask([tapStep()], { costUsd: null, planner: directAnthropic, status: 'running', finishedAt: null })} />);
    expect(screen.getByTestId('usage-meter').textContent).toBe('So far: 3,000 tokens in · 150 out · cost unknown (the model is not in the price table)');
  });

  it('Scenario: A finished task shows its totals without "So far", and no cost before any model call', () => {
    const { rerender } = render(<UsageMeter task={finishedTask([tapStep()], { costUsd: 0.0123 })} />);
    expect(screen.getByTestId('usage-meter').textContent).toBe('3,000 tokens in · 150 out · cost $0.012');
    rerender(<UsageMeter task={finishedTask([], { costUsd: null, planner: directAnthropic, usage: { inputTokens: 0, outputTokens: 0 } })} />);
    expect(screen.getByTestId('usage-meter').textContent).toBe('0 tokens in · 0 out');
  });

  it('Scenario: A step shows "verified" or "not verified: why", and the log says who decided and when', () => {
    const notVerified = tapStep({
      outcome: { ...tapStep().outcome!, verification: { status: 'not-verified', check: 'screen-changed', fact: 'the screen did not change' } },
    });
    render(<StepCard step={notVerified} planner={directAnthropic} running={false} />);
    expect(screen.getByTestId('verification').textContent).toBe('Not verified: the screen did not change');
    cleanup();
    const task = finishedTask([tapStep()], {
      verification: { status: 'verified', check: 'app-in-foreground', fact: 'Contacts is in the foreground' },
      supervisionLog: [
        { type: 'person.asked', taskId: 't-1', at: 1_700_000_001_000, step: 1, requestId: 'q1', request: { kind: 'question', question: 'Which Alice?' } },
        { type: 'person.answered', taskId: 't-1', at: 1_700_000_002_000, step: 1, requestId: 'q1', reply: { kind: 'answer', text: 'Alice Smith' }, by: 'person' },
        { type: 'guard.decided', taskId: 't-1', at: 1_700_000_003_000, step: 2, guard: 'loop', finding: 'repeat', decision: 'warn', message: 'tap e2 twice, nothing changed', by: 'runtime' },
      ],
    });
    render(<TaskSupervision task={task} />);
    expect(screen.getByTestId('verification').textContent).toBe('Verified: Contacts is in the foreground');
    const lines = screen.getAllByTestId('supervision-line').map((line) => line.textContent);
    expect(lines[0]).toMatch(/^Step 1 · .+ The agent asked: Which Alice\?$/);
    expect(lines[1]).toMatch(/Answered: Alice Smith — decided by the person$/);
    expect(lines[2]).toMatch(/Guard \(loop, warn\): tap e2 twice, nothing changed — decided by the runtime$/);
  });

  it('Scenario: A paused task resumes with a note for the agent', async () => {
    const bridge = new FakeBridge({ 'tasks.resume': ({ taskId }) => ({ taskId: taskId ?? null, status: 'running', paused: false }) });
    render(
      <BridgeContext.Provider value={bridge}>
        <ResumeNote taskId="t-1" />
      </BridgeContext.Provider>,
    );
    const send = screen.getByRole('button', { name: 'Continue with this note' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Note for the agent when it resumes'), { target: { value: '  I logged in  ' } });
    fireEvent.click(send);
    await expect.poll(() => bridge.callsOf('tasks.resume')).toEqual([{ taskId: 't-1', note: 'I logged in' }]);
  });
});
