// A finished task as the flow file a person keeps (amc flow export, Save as flow): hand-made records whose runs started
// inside their app, were not verified, or typed a value that reads like a tool or a widget's kind.
import { describe, expect, it } from 'vitest';
import { recordedFlowFile } from '../../../src/core/flows/recorded-flow-file';
import { newTaskRecord, type StepRecord, type TaskRecord } from '../../../src/shared/task';
import type { Scene } from '../../../src/shared/scene';
import type { Verification } from '../../../src/shared/action';
import { step } from '../runtime/doubles';

const screen = { width: 1080, height: 2400, orientation: 'portrait' as const, package: 'com.android.settings', keyboardShown: false };
const wifi = (on: boolean): Scene => ({ screen, elements: [{ id: 'e3', type: 'Switch', text: 'Wi-Fi', bounds: [0, 252, 1080, 452], clickable: true, checked: on }] });
const search = (typed: string | undefined): Scene => ({
  screen,
  elements: [
    { id: 'e1', type: 'EditText', hint: 'Search settings', ...(typed !== undefined && { text: typed }), bounds: [0, 100, 1080, 200], clickable: true, editable: true },
    { id: 'e2', type: 'Button', text: 'Search', bounds: [0, 200, 1080, 300], clickable: true },
  ],
});
const turn = (number: number, scene: Scene, planned: StepRecord['planned'], verification?: Verification): StepRecord => ({
  step: number,
  scene,
  sceneError: null,
  screenshot: null,
  screenChanged: true,
  planned,
  outcome: planned ? { ok: true, attempts: 1, durationMs: 5, target: { x: 1, y: 1, elementId: String(planned.args.element_id) }, ...(verification && { verification }) } : null,
  timings: { observeMs: 1, planMs: 1, executeMs: 5 },
});
const record = (steps: StepRecord[], verification: TaskRecord['verification'] = null): TaskRecord => ({
  ...newTaskRecord({ id: 't1', goal: 'Turn on Wi-Fi', serial: 'p', planner: { kind: 'ai', exposesReasoning: true }, maxSteps: 9, createdAt: 0 }),
  status: 'completed',
  verification,
  steps,
});
const flipped: Verification = { status: 'verified', check: 'checked-flipped', fact: 'Wi-Fi is now on' };

describe('a finished task as a flow file', () => {
  it('Scenario: A run begun inside its app is exported opening that app first and ending on its verified outcome, without the reasons', () => {
    const file = recordedFlowFile(record([turn(1, wifi(false), step('tap', { element_id: 'e3' }, 'The Wi-Fi switch.'), flipped), turn(2, wifi(true), null)]));
    expect(file.steps).toEqual([
      { tool: 'launch_app', args: { app: 'com.android.settings' }, expect: { app: 'com.android.settings' } },
      { tool: 'tap', args: {}, target: { app: 'com.android.settings', type: 'Switch', text: 'Wi-Fi' }, before: { checked: false }, expect: { checked: true } },
      { assert: { checked: { app: 'com.android.settings', type: 'Switch', text: 'Wi-Fi' } } },
    ]);
    expect(JSON.stringify(file)).not.toContain('The Wi-Fi switch.');
    expect(recordedFlowFile(record([turn(1, wifi(false), step('tap', { element_id: 'e3' }, 'The Wi-Fi switch.'), flipped), turn(2, wifi(true), null)]), { why: true }).steps[1]).toMatchObject({ why: 'The Wi-Fi switch.' });
  });

  it('Scenario: A run that was not verified is exported without an assert of its outcome', () => {
    const unverified = record([turn(1, wifi(false), step('tap', { element_id: 'e3' }), flipped), turn(2, wifi(true), null)], { status: 'not-verified', check: 'action-taken', fact: 'no action was taken' });
    expect(unverified.verification?.status).toBe('not-verified');
    expect(recordedFlowFile(unverified).steps.some((each) => 'assert' in each)).toBe(false);
  });

  it('Scenario: A typed value that reads like a tool or a kind of element becomes a variable, and the step keeps its tool', () => {
    const typed = record([
      turn(1, search(undefined), step('type_text', { element_id: 'e1', text: 'Button' }), { status: 'verified', check: 'text-in-field', fact: 'shows Button' }),
      turn(2, search('Button'), step('tap', { element_id: 'e2' })),
      turn(3, search('Button'), null),
    ]);
    const file = recordedFlowFile({ ...typed, goal: 'Search settings for Button' });
    expect(file.vars).toEqual({ search_settings: 'Button' });
    expect(file.goal).toBe('Search settings for ${search_settings}');
    expect(file.steps[1]).toMatchObject({ tool: 'type_text', args: { text: '${search_settings}' }, target: { type: 'text-field' }, expect: { fieldText: '${search_settings}' } });
    expect(file.steps[2]).toMatchObject({ tool: 'tap', target: { type: 'Button', text: 'Search' } });
  });
});
