// @vitest-environment jsdom
// Where each step of a replayed or cached task came from, as the timeline marks it; a task planned wholly by the
// model shows no marks (nothing to tell apart).
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { withFakeBridge } from './fake-bridge';
import { TaskTimeline } from '../../src/renderer/src/components/timeline/TaskTimeline';
import { directAnthropic, finishedTask, tapStep } from './fixtures';
import type { PlannedStep } from '../../src/shared/task';

afterEach(cleanup);

const from = (step: number, source: PlannedStep['source']) => tapStep({ step, planned: { ...tapStep().planned!, source, usage: source === 'model' ? tapStep().planned!.usage : null } });

describe('step sources in the timeline', () => {
  it('Scenario: The timeline marks replayed, skipped and model steps', () => {
    const task = finishedTask([from(1, 'replayed'), from(2, 'skipped'), from(3, 'model')], { planner: { ...directAnthropic, kind: 'replay' } });
    render(<TaskTimeline task={task} />, { wrapper: withFakeBridge() });
    expect(screen.getAllByTestId('step-source').map((mark) => mark.textContent)).toEqual(['replayed', 'skipped: already done', 'planned by the model']);
  });

  it('Scenario: The timeline says which steps came from the cache', () => {
    const task = finishedTask([from(1, 'cache'), from(2, 'model')], { planner: directAnthropic });
    render(<TaskTimeline task={task} />, { wrapper: withFakeBridge() });
    expect(screen.getAllByTestId('step-source').map((mark) => mark.textContent)).toEqual(['from the cache', 'planned by the model']);
  });

  it('marks nothing in a task the model planned alone', () => {
    render(<TaskTimeline task={finishedTask([from(1, 'model'), from(2, 'model')], { planner: directAnthropic })} />, { wrapper: withFakeBridge() });
    expect(screen.queryAllByTestId('step-source')).toEqual([]);
  });
});
