// @vitest-environment jsdom
// A flow run's reasons in a Chinese window describe the elements they name in Chinese: a failed run's reason (a step
// whose button below a title is missing) and a replayed step's rationale (a tap into a field), each worded from the
// codes the replay recorded; an English window shows the English words they were recorded with.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StepCard } from '../../src/renderer/src/components/timeline/StepCard';
import { TaskResultCard } from '../../src/renderer/src/components/timeline/TaskResultCard';
import { resolveLocator } from '../../src/core/flows/locator';
import { locatorCall } from '../../src/core/flows/locator-said';
import { stepFailed } from '../../src/core/flows/flow-step-said';
import { sayActions } from '../../src/shared/supervision-words';
import type { Scene } from '../../src/shared/scene';
import type { PlannerInfo } from '../../src/shared/task';
import { inLanguage } from './in-language';
import { finishedTask, tapStep } from './fixtures';

afterEach(cleanup);

const replay: PlannerInfo = { kind: 'replay', exposesReasoning: false };
const notes: Scene = {
  screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.amc.notes', activity: '.EditNote', keyboardShown: false },
  elements: [{ id: 'e1', type: 'EditText', hint: 'Title', editable: true, bounds: [42, 300, 1038, 458], clickable: true }],
} as Scene;
const missing = resolveLocator(notes, { text: 'Send', type: 'Button', relative: { below: { hint: 'Title' } } });
if (missing.kind !== 'missing') throw new Error('the Send button was found');
const failure = stepFailed(1, { text: missing.reason, said: missing.said });
const failed = finishedTask([], { planner: replay, goal: '发一条笔记', status: 'failed', result: null, failureReason: failure.text, failureSaid: failure.said });
const typeInto = sayActions('flowRun.stepWhy', { actionCall: locatorCall('type_text', { text: 'milk' }, { hint: 'Title', type: 'text-field' }), step: 1 });
const typed = tapStep({ planned: { tool: 'type_text', args: { text: 'milk', element_id: 'e1' }, rationale: typeInto.text, rationaleSaid: typeInto.said, thinking: null, usage: null, costUsd: null, source: 'replayed' }, outcome: { ok: true, attempts: 1, durationMs: 40 } });

/** The words an English description of an element is made of, besides the names it quotes. */
const ENGLISH_LOCATOR_WORDS = /\b(?:the|field|button|below|on|this|screen|into|step|of|flow)\b/i;
const withoutNames = (text: string) => text.replace(/“[^”]*”|'[^']*'|"[^"]*"/g, '');

describe("a located element's description in the window", () => {
  it("Scenario: A located element's description in a flow run's reasons is in the reader's language (in the window)", () => {
    expect(failure.text).toBe("Step 2: no 'Send' button below 'Title' on this screen; I see: Title");
    const result = inLanguage('zh-CN', <TaskResultCard task={failed} />).container.textContent ?? '';
    expect(result).toContain('第 2 步：这个屏幕上没有 “Title”下方的“Send”按钮；我看到：Title');
    expect(withoutNames(result)).not.toMatch(ENGLISH_LOCATOR_WORDS);
    cleanup();
    inLanguage('zh-CN', <StepCard step={typed} planner={replay} running={false} />);
    expect(screen.getByTestId('step-rationale').textContent).toBe('输入 “milk” 到 输入框“Title”（流程的第 1 步）');
    cleanup();

    // An English window shows the words the replay recorded.
    expect(inLanguage('en', <TaskResultCard task={failed} />).container.textContent).toContain(failure.text);
    cleanup();
    inLanguage('en', <StepCard step={typed} planner={replay} running={false} />);
    expect(screen.getByTestId('step-rationale').textContent).toBe(`Type "milk" into the field 'Title' (step 1 of the flow)`);
  });
});
