// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StepCard } from '../../src/renderer/src/components/timeline/StepCard';
import { withFakeBridge } from './fake-bridge';
import { TaskTimeline } from '../../src/renderer/src/components/timeline/TaskTimeline';
import { cloudProxy, directAnthropic, finishedTask, tapStep } from './fixtures';
import { joinLabelParts } from '../../src/shared/scene';
import { useAppStore } from '../../src/renderer/src/store/app-store';

afterEach(cleanup);

describe('timeline card', () => {
  it('Scenario: A turn card shows the action, its target, rationale, thinking, outcome, timings and tokens', () => {
    render(<StepCard step={tapStep()} planner={directAnthropic} running={false} />);
    const card = screen.getByRole('article', { name: 'Step 2' });
    expect(within(card).getByTestId('step-action').textContent).toBe('tap(element_id="e2") on Button "Add contact"');
    expect(within(card).getByTestId('step-rationale').textContent).toContain('Add contact button');
    const thinking = within(card).getByTestId('step-thinking') as HTMLDetailsElement;
    expect(thinking.open).toBe(false);
    fireEvent.click(within(thinking).getByText('Thinking'));
    expect(thinking.open).toBe(true);
    expect(within(thinking).getByText(/e2 is the add button/)).toBeTruthy();
    expect(within(card).getByTestId('step-outcome').textContent).toBe('✓ ok'); // one execution that went through at the first try shows no count
    const metrics = within(card).getByTestId('step-metrics').textContent;
    expect(metrics).toContain('Observe310 ms');
    expect(metrics).toContain('Plan1.8 s');
    expect(metrics).toContain('Act120 ms');
    expect(metrics).toContain('1,520 tokens in · 64 out');
  });

  it('Scenario: A closed step card reads like a person: the action in words and the first line of why', () => {
    const settingsScene = {
      screen: { width: 1080, height: 2400, orientation: 'portrait' as const, package: 'com.android.settings', keyboardShown: false },
      elements: [{ id: 'e5', type: 'LinearLayout', text: joinLabelParts(['Network & internet', 'Mobile, Wi-Fi, hotspot']), bounds: [0, 400, 1080, 560] as [number, number, number, number], clickable: true as const }],
    };
    const step = tapStep({
      scene: settingsScene,
      planned: { ...tapStep().planned!, args: { element_id: 'e5' }, rationale: 'Wi-Fi lives under Network & internet.\nThe row is visible without scrolling.' },
      outcome: { ok: true, attempts: 1, durationMs: 90, target: { x: 540, y: 480, elementId: 'e5', label: 'LinearLayout "Network & internet · Mobile, Wi-Fi, hotspot"' } },
    });
    render(<StepCard step={step} planner={directAnthropic} running={false} expanded={false} onToggle={() => {}} />);
    expect(screen.getByTestId('step-summary').textContent).toBe("Tap 'Network & internet'");
    expect(screen.getByTestId('step-why').textContent).toBe('Wi-Fi lives under Network & internet.');
    cleanup();
    const typed = tapStep({ planned: { ...tapStep().planned!, tool: 'type_text', args: { text: 'Alice', element_id: 'e3', submit: true } } , outcome: { ok: true, attempts: 1, durationMs: 90 } });
    render(<StepCard step={typed} planner={directAnthropic} running={false} expanded={false} onToggle={() => {}} />);
    expect(screen.getByTestId('step-summary').textContent).toBe('Type "Alice" into \'Search\' and press Enter');
  });

  it('Scenario: A denied action is shown as denied by the person, not as an error', () => {
    const step = tapStep({ outcome: { ok: false, error: 'the person denied this action', attempts: 0, durationMs: 0 }, timings: { observeMs: 300, planMs: 900, executeMs: 0 } });
    render(<StepCard step={step} planner={directAnthropic} running={false} />);
    const outcome = screen.getByTestId('step-outcome');
    expect(outcome.textContent).toBe('⊘ denied by you');
    expect(outcome.className).not.toContain('error');
    expect(screen.queryByTestId('step-error')).toBeNull();
    expect(screen.getByTestId('step-denied').textContent).toContain('did not run');
  });

  it('Scenario: The wireframe marks the action target from the stored Scene', () => {
    render(<StepCard step={tapStep()} planner={directAnthropic} running={false} />);
    const wireframe = screen.getByRole('img', { name: 'Screen at step 2, target Button "Add contact"' });
    expect(wireframe.getAttribute('viewBox')).toBe('0 0 1080 2400');
    expect(wireframe.querySelectorAll('rect.wf-element')).toHaveLength(3);
    const target = wireframe.querySelector('rect.wf-target')!;
    expect(target.getAttribute('data-element-id')).toBe('e2');
    const point = screen.getByTestId('wireframe-target');
    expect([point.getAttribute('cx'), point.getAttribute('cy')]).toEqual(['910', '2200']);
    expect(wireframe.querySelector('image')).toBeNull();
  });

  it('Scenario: Thinking is clearly marked not available over cloud-proxy', () => {
    const step = tapStep({ planned: { ...tapStep().planned!, rationale: null, thinking: null } });
    render(<StepCard step={step} planner={cloudProxy} running={false} />);
    const thinking = screen.getByTestId('step-thinking');
    expect(within(thinking).getByText('Thinking — not available')).toBeTruthy();
    expect(thinking.textContent).toContain('cloud-proxy transport returns only the chosen action');
    expect(screen.getByRole('region', { name: 'Rationale' }).textContent).toContain('Not available');
  });

  it('Scenario: A failed action shows its reason and attempts', () => {
    const step = tapStep({ outcome: { ok: false, error: 'element e9 is not in the current Scene', attempts: 0, durationMs: 0 } });
    render(<StepCard step={step} planner={directAnthropic} running={false} />);
    expect(screen.getByTestId('step-outcome').textContent).toBe('✗ error · not sent to the phone');
    expect(screen.getByTestId('step-error').textContent).toBe('element e9 is not in the current Scene');
  });

  it('Scenario: A live turn says what it is waiting for', () => {
    const step = tapStep({ planned: null, outcome: null, timings: { observeMs: 300, planMs: null, executeMs: null } });
    render(<StepCard step={step} planner={directAnthropic} running />);
    expect(screen.getByRole('status').textContent).toBe('Planning…');
    expect(screen.queryByTestId('step-action')).toBeNull();
  });

  it('Scenario: A turn waiting for the person says "Waiting for you", not "Acting…"', () => {
    const asking = tapStep({ step: 2, planned: { tool: 'tap', args: { element_id: 'e2' }, rationale: 'Send it.', thinking: null, usage: null, costUsd: null, source: 'model' }, outcome: null });
    const waiting = finishedTask([tapStep({ step: 1 }), asking], {
      status: 'running',
      result: null,
      pending: { at: 1, step: 2, requestId: 'r1', request: { kind: 'loop', description: 'tap {"element_id":"e2"} 4 times in a row' } },
    });
    const { rerender } = render(<TaskTimeline task={waiting} />, { wrapper: withFakeBridge() });
    const card = screen.getByRole('article', { name: 'Step 2' });
    expect(within(card).getByTestId('step-phase').textContent).toBe('Waiting for you');
    expect(card.textContent).not.toContain('Acting…');
    // Answered: the same turn goes back to acting until its outcome arrives.
    rerender(<TaskTimeline task={{ ...waiting, pending: null }} />);
    expect(within(screen.getByRole('article', { name: 'Step 2' })).getByTestId('step-phase').textContent).toBe('Acting…');
    expect(within(screen.getByRole('article', { name: 'Step 1' })).queryByTestId('step-phase')).toBeNull();
  });

  it('Scenario: The final card states the result or the failure reason in plain words', () => {
    const { rerender } = render(<TaskTimeline task={finishedTask([tapStep()])} />, { wrapper: withFakeBridge() });
    expect(screen.getByRole('article', { name: 'Done' }).textContent).toContain('Alice was added with number 555-0100.');
    expect(screen.getByTestId('task-result-summary').textContent).toBe('1 action in 1 turn · 12 s · 3,000 tokens in · 150 out');
    rerender(
      <TaskTimeline task={finishedTask([tapStep()], { status: 'failed', result: null, failureReason: 'The phone went offline.' })} />,
    );
    expect(screen.getByTestId('task-result-text').textContent).toBe('The phone went offline.');
    rerender(
      <TaskTimeline
        task={finishedTask([tapStep({ step: 1 }), tapStep({ planned: null, outcome: null })], { status: 'cancelled', result: null, failureReason: null })}
      />,
    );
    expect(screen.getByRole('article', { name: 'Step 2' }).textContent).toContain('The task was stopped before an action was chosen in this turn.');
    expect(screen.getByTestId('task-result-text').textContent).toBe('The task was stopped.');
    // An error's class name means nothing to a person: only its message is shown.
    rerender(
      <TaskTimeline
        task={finishedTask([tapStep({ outcome: { ok: false, error: 'AdbError: No device is connected.', attempts: 3, durationMs: 600 } })], {
          status: 'failed',
          result: null,
          failureReason: 'AdbError: No device is connected.',
          failure: { error: 'AdbError', message: 'No device is connected.' },
        })}
      />,
    );
    expect(screen.getByTestId('task-result-text').textContent).toBe('No device is connected.');
    // A class name in front is not worth a "Details": it would repeat the message.
    expect(screen.queryByTestId('reason-details')).toBeNull();
    expect(screen.getByTestId('step-error').textContent).toBe('No device is connected.');
    expect(screen.getByRole('article', { name: 'Failed' })).toBeTruthy();
    expect(screen.getByTestId('planner-label').textContent).toBe('Planner: AI · anthropic · claude-sonnet-4-6 · direct');
    // What the plain words leave out (a stack trace) stays one click away for a bug report.
    const message = 'No device is connected.\n    at connect (/app/out/main/index.js:10:5)';
    rerender(<TaskTimeline task={finishedTask([tapStep()], { status: 'failed', result: null, failureReason: `AdbError: ${message}`, failure: { error: 'AdbError', message } })} />);
    expect(screen.getByTestId('task-result-text').textContent).toBe('No device is connected.');
    expect(screen.getByTestId('reason-details').textContent).toContain('at connect (/app/out/main/index.js:10:5)');
  });

  it('Scenario: A step whose action left the screen unchanged says so', () => {
    // Each row holds its own action's screen change (the next turn's look put it there).
    const unchanged = tapStep({ step: 1, screenChanged: false });
    const { rerender } = render(<TaskTimeline task={finishedTask([unchanged, tapStep({ step: 2, screenChanged: null })])} />, { wrapper: withFakeBridge() });
    const firstCard = screen.getByRole('article', { name: 'Step 1' });
    expect(within(firstCard).getByTestId('step-unchanged').textContent).toBe('The screen did not change after this action.');
    // The last turn's effect is not known yet: nothing is claimed about it.
    expect(within(screen.getByRole('article', { name: 'Step 2' })).queryByTestId('step-unchanged')).toBeNull();
    rerender(<TaskTimeline task={finishedTask([tapStep({ step: 1, screenChanged: true }), tapStep({ step: 2, screenChanged: false })])} />);
    expect(within(screen.getByRole('article', { name: 'Step 1' })).queryByTestId('step-unchanged')).toBeNull();
    expect(within(screen.getByRole('article', { name: 'Step 2' })).getByTestId('step-unchanged')).toBeTruthy();
  });

  it("Scenario: A page's last card reads its own row, not the turn after it", () => {
    // A long task read a page at a time: turn 8's next turn is not in this page, and its row still says what it did.
    const page = finishedTask([tapStep({ step: 7, screenChanged: true }), tapStep({ step: 8, screenChanged: false })], { page: { from: 6, turnCount: 9, actionCount: 9 } });
    render(<TaskTimeline task={page} />, { wrapper: withFakeBridge() });
    expect(within(screen.getByRole('article', { name: 'Step 8' })).getByTestId('step-unchanged')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Step 7' })).queryByTestId('step-unchanged')).toBeNull();
  });

  it("Scenario: A runtime step is marked as the runtime's", () => {
    const back = tapStep({
      step: 2,
      planned: { tool: 'press_key', args: { key: 'back' }, rationale: null, thinking: null, usage: null, costUsd: null, source: 'runtime' },
      outcome: { ok: true, attempts: 1, durationMs: 80 },
    });
    render(<TaskTimeline task={finishedTask([tapStep({ step: 1 }), back])} />, { wrapper: withFakeBridge() });
    const card = screen.getByRole('article', { name: 'Step 2' });
    expect(within(card).getByTestId('step-source').textContent).toBe('by the runtime: back out of an app outside the allowed apps');
    expect(within(card).getByTestId('step-rationale').textContent).toMatch(/^The runtime took this step itself, not the model/);
    // The model's own step says it is the model's.
    expect(within(screen.getByRole('article', { name: 'Step 1' })).getByTestId('step-source').textContent).toBe('planned by the model');
  });

  it('Scenario: A built-in planner run says it only looked and claims no change for looking', () => {
    const look = tapStep({
      step: 1,
      planned: { tool: 'describe_screen', args: {}, rationale: null, thinking: null, usage: null, costUsd: null, source: 'model' },
      outcome: { ok: true, attempts: 0, durationMs: 0 },
    });
    const last = tapStep({ step: 2, screenChanged: false, planned: null, outcome: null });
    render(<TaskTimeline task={finishedTask([look, last], { planner: { kind: 'stub', exposesReasoning: false }, result: null })} />, { wrapper: withFakeBridge() });
    const card = screen.getByRole('article', { name: 'Step 1' });
    expect(within(card).getByTestId('step-outcome').textContent).toBe('✓ ok');
    expect(within(card).queryByTestId('step-unchanged')).toBeNull();
    // A neutral card, not a green "Done": the built-in planner only looked.
    const result = screen.getByRole('article', { name: 'Looked at the screen only' });
    expect(result.getAttribute('data-outcome')).toBe('looked-only');
    expect(result.className).not.toContain('status-completed');
    expect(screen.getByTestId('task-result-text').textContent).toMatch(/^The AI planner is off\. The built-in planner describes the screen and stops/);
    expect(screen.getByTestId('task-result-text').textContent).not.toContain('goal was reached');
    expect(useAppStore.getState().settingsOpen).toBe(false);
    fireEvent.click(within(result).getByRole('button', { name: 'Open Settings' }));
    expect(useAppStore.getState().settingsOpen).toBe(true);
  });
});
