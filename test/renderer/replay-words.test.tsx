// @vitest-environment jsdom
// A replayed flow's turns in a Chinese window: the rationale the replay wrote for a step (with the check it confirmed on
// the way) and the flow's end are worded from their codes, in the window's language; the English text they were
// recorded with stays what an English window shows.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StepCard } from '../../src/renderer/src/components/timeline/StepCard';
import { TaskResultCard } from '../../src/renderer/src/components/timeline/TaskResultCard';
import { say, saidList } from '../../src/shared/said';
import { actionCall, sayActions } from '../../src/shared/supervision-words';
import type { PlannerInfo } from '../../src/shared/task';
import { latinSentences } from '../support/latin-sentences';
import { inLanguage } from './in-language';
import { finishedTask, tapStep } from './fixtures';

afterEach(cleanup);

const replay: PlannerInfo = { kind: 'replay', exposesReasoning: false };
/** Step 3's rationale as the replay writes it, with the check step 2 confirmed before it. */
const pressBack = sayActions('flowRun.stepWhy', { actionCall: actionCall('press_key', { key: 'back' }, undefined), step: 3 });
const checked = say('flowRun.appInFront', { app: 'com.amc.notes' });
const rationale = sayActions('flowRun.whyChecked', { whySaid: saidList([pressBack.said]), checkedSaid: saidList([checked.said]) });
const step = tapStep({ planned: { tool: 'press_key', args: { key: 'back' }, rationale: rationale.text, rationaleSaid: rationale.said, thinking: null, usage: null, costUsd: null, source: 'replayed' }, outcome: { ok: true, attempts: 1, durationMs: 40 } });
const done = say('flowRun.allDone');
const task = finishedTask([step], { planner: replay, goal: '打开笔记', result: done.text, resultSaid: done.said });

describe("a replayed flow's words in the window", () => {
  it("Scenario: A replayed step's rationale and the flow's end are in the window's language", () => {
    expect(rationale.text).toBe('Press Back (step 3 of the flow) (Checked: com.amc.notes is in front.)');
    inLanguage('zh-CN', <StepCard step={step} planner={replay} running={false} expanded={false} onToggle={() => {}} />);
    expect(screen.getByTestId('step-why').textContent).toBe('按 Back（流程的第 3 步）（已检查：com.amc.notes 在前台。）');
    cleanup();
    inLanguage('zh-CN', <StepCard step={step} planner={replay} running={false} />);
    expect(screen.getByTestId('step-rationale').textContent).toBe('按 Back（流程的第 3 步）（已检查：com.amc.notes 在前台。）');
    cleanup();
    const result = inLanguage('zh-CN', <TaskResultCard task={task} />);
    expect(result.container.textContent).toContain('流程的每一步都完成了');
    expect(latinSentences(result.container.textContent ?? '')).toEqual([]);
    expect(result.container.textContent).not.toContain(done.text);
    cleanup();

    // An English window shows the words the replay recorded.
    inLanguage('en', <StepCard step={step} planner={replay} running={false} />);
    expect(screen.getByTestId('step-rationale').textContent).toBe(rationale.text);
    cleanup();
    expect(inLanguage('en', <TaskResultCard task={task} />).container.textContent).toContain('every step of the flow is done');
  });
});
