// One turn shape: the model's decision, the planner's step, the step.planned event and the step record's plan are
// one type (the compiler checks every hop), older history reads with defaults, and usage and cost are summed once.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ToolCallDecision } from '@amc/provider-clients';
import {
  PlannedStepSchema,
  StepPlannedEventSchema,
  TaskRecordSchema,
  applyTaskEvent,
  newTaskRecord,
  plannedOf,
  type PlannedStep,
  type StepRecord,
  type TaskEvent,
  type TaskEventOf,
} from '../../src/shared/task';
import { TaskRunner } from '../../src/core/runtime/task-runner';
import { DEFAULT_TASK_POLICIES } from '../../src/core/runtime/task-policies';
import { act, FakeObserver, ScriptedPlanner, step } from '../core/runtime/doubles';

const decision: ToolCallDecision = { tool: 'tap', args: { element_id: 'e2' }, rationale: 'The Wi-Fi row.', thinking: 'I see it.', usage: { inputTokens: 1200, outputTokens: 40 } };
const fold = (events: TaskEvent[]) => events.reduce(applyTaskEvent, newTaskRecord({ id: 't1', goal: 'g', serial: 's', planner: { kind: 'ai', exposesReasoning: true }, maxSteps: 5, createdAt: 0 }));
const observed = (step: number): TaskEvent => ({ type: 'step.observed', taskId: 't1', at: step, step, scene: null, sceneError: null, screenshot: null, screenChanged: null, observeMs: 1 });

describe('one turn shape', () => {
  it("Scenario: A turn's plan keeps one shape from the model's decision to the step record", () => {
    // Every hop is the same type: a field added to the plan reaches the event and the record, or nothing compiles.
    // What the app adds to the model's decision: its price, where the step came from, the codes of a rationale and a finish reason it wrote, and a flow's marks.
    expectTypeOf<Omit<PlannedStep, 'usage' | 'costUsd' | 'source' | 'rationaleSaid' | 'reasonSaid' | 'flow'>>().toEqualTypeOf<Omit<ToolCallDecision, 'usage'>>();
    expectTypeOf<Omit<TaskEventOf<'step.planned'>, 'type' | 'taskId' | 'at' | 'step' | 'planMs'>>().toEqualTypeOf<PlannedStep>();
    expectTypeOf(plannedOf).returns.toEqualTypeOf<PlannedStep>();
    expectTypeOf<NonNullable<StepRecord['planned']>>().toEqualTypeOf<PlannedStep>();

    const planned: PlannedStep = { ...decision, costUsd: 0.0042, source: 'model' };
    const event = StepPlannedEventSchema.parse({ type: 'step.planned', taskId: 't1', at: 2, step: 1, ...planned, planMs: 900 });
    const record = fold([observed(1), event]);
    expect(record.steps[0]!.planned).toEqual(planned);
    expect(TaskRecordSchema.parse(record).steps[0]!.planned).toEqual(planned);
  });

  it('Scenario: History written before per-turn cost reads with defaults', () => {
    const old = fold([observed(1)]);
    const stored = JSON.parse(JSON.stringify({ ...old, steps: [{ ...old.steps[0], planned: { tool: 'tap', args: {}, rationale: null, thinking: null, usage: null } }] }));
    expect(TaskRecordSchema.parse(stored).steps[0]!.planned).toEqual({ tool: 'tap', args: {}, rationale: null, thinking: null, usage: null, costUsd: null, source: 'model' });
    const { costUsd: _costUsd, usage: _usage, source: _source, ...oldPlan } = PlannedStepSchema.parse(decision);
    expect(StepPlannedEventSchema.parse({ type: 'step.planned', taskId: 't1', at: 2, step: 1, ...oldPlan, planMs: 5 })).toMatchObject({ usage: null, costUsd: null, source: 'model' });
  });

  it('Scenario: Usage and cost are summed once, by the record', async () => {
    const usage = { inputTokens: 1000, outputTokens: 100 };
    const planner = new ScriptedPlanner((input) =>
      input.step <= 2
        ? act({ ...step('press_key', { key: 'back' }), usage })
        : { kind: 'finish', success: true, reason: 'done', call: { ...step('finish_task', { success: true, reason: 'done' }), usage } },
    );
    const price = { model: 'scripted', input: 3, output: 15 };
    let screen = 0;
    const runner = new TaskRunner({
      observer: new FakeObserver([() => ({ screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.example', keyboardShown: false }, elements: [{ id: 'e1', type: 'TextView', text: `screen ${(screen += 1)}`, bounds: [0, 0, 10, 10] }] })]),
      executor: { execute: async () => ({ ok: true, attempts: 1, durationMs: 1 }) },
      plannerSource: async () => ({ planner, maxSteps: 10, policies: { ...DEFAULT_TASK_POLICIES, price } }),
    });
    const events: TaskEvent[] = [];
    runner.on((event) => events.push(event));
    const record = await runner.run({ serial: 's', goal: 'g' });
    const perCall = (1000 * 3 + 100 * 15) / 1_000_000;
    expect(record.usage).toEqual({ inputTokens: 3000, outputTokens: 300 });
    expect(record.costUsd).toBeCloseTo(3 * perCall, 10);
    expect(record.steps.map((s) => s.planned?.costUsd)).toEqual([perCall, perCall, perCall]);
    const finished = events.at(-1) as TaskEventOf<'task.finished'>;
    expect(finished).toMatchObject({ type: 'task.finished', usage: record.usage, costUsd: record.costUsd });

    // The finished event's totals are for its listeners: the record keeps the sums of its turns.
    const refolded = fold([...events.filter((event) => event.type !== 'task.started').map((event) => ({ ...event, taskId: 't1' })).slice(0, -1), { ...finished, taskId: 't1', usage: { inputTokens: 1, outputTokens: 1 }, costUsd: 99 }]);
    expect(refolded.usage).toEqual({ inputTokens: 3000, outputTokens: 300 });
    expect(refolded.costUsd).toBeCloseTo(3 * perCall, 10);
  });
});
