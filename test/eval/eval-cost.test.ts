import { describe, expect, it } from 'vitest';
import { renderComparison, renderEvalHtml, renderTable, totalsLine } from '../../src/eval/render';
import type { EvalAttempt } from '../../src/eval/run-suite';
import { EvalReportSchema, summarize } from '../../src/eval/summary';
import { PHONE_TASKS } from '../../src/eval/tasks/index';
import { costOf, parsePriceTable, priceOf, type ModelPrice } from '../../src/shared/prices';
import { newTaskRecord, type PlannerInfo } from '../../src/shared/task';

const SONNET: PlannerInfo = { kind: 'ai', provider: 'anthropic', transport: 'direct', model: 'claude-sonnet-4-6', exposesReasoning: true };
const UNLISTED: PlannerInfo = { ...SONNET, model: 'claude-unlisted-9' };
const [wifi, bluetooth] = PHONE_TASKS as [(typeof PHONE_TASKS)[number], (typeof PHONE_TASKS)[number]];
const table = parsePriceTable('claude-sonnet-4-6 3/15');
const sonnetPrice = 'prices' in table ? priceOf('claude-sonnet-4-6', table.prices) : null;

/** A finished run as the runtime records it: the cost it accumulated call by call at `price` (none without one). */
function run(task: typeof wifi, attempt: number, success: boolean, usage: { inputTokens: number; outputTokens: number }, planner: PlannerInfo, price: ModelPrice | null): EvalAttempt {
  const record = {
    ...newTaskRecord({ id: `${task.id}-${attempt}`, goal: task.goal, serial: 'emulator-5586', planner, maxSteps: 20, createdAt: 0 }),
    status: success ? ('completed' as const) : ('failed' as const),
    usage,
    costUsd: price && usage.inputTokens ? costOf(usage, price) : null,
  };
  return { task, attempt, success, verdict: success ? 'ok' : 'Wi-Fi is still on', record, hostMs: 5 };
}

function suite(planner: PlannerInfo, price: ModelPrice | null) {
  return summarize({
    planner,
    price,
    startedAt: 0,
    wallMs: 1000,
    parallel: 2,
    repeat: 2,
    complete: true,
    attempts: [
      run(wifi, 1, true, { inputTokens: 10_000, outputTokens: 200 }, planner, price),
      run(wifi, 2, false, { inputTokens: 20_000, outputTokens: 400 }, planner, price),
      // A run that ended before any model call: with a price it cost nothing, not an unknown amount.
      run(bluetooth, 1, false, { inputTokens: 0, outputTokens: 0 }, planner, price),
      run(bluetooth, 2, true, { inputTokens: 30_000, outputTokens: 1_000 }, planner, price),
    ],
  });
}

describe('eval cost', () => {
  it('Scenario: Eval costs come from the price table', () => {
    expect(sonnetPrice).toEqual({ model: 'claude-sonnet-4-6', input: 3, output: 15 });
    const report = EvalReportSchema.parse(JSON.parse(JSON.stringify(suite(SONNET, sonnetPrice))));
    expect(report.price).toEqual({ model: 'claude-sonnet-4-6', input: 3, output: 15 });
    const runsOf = (id: string) => report.tasks.find((task) => task.id === id)!.attempts.map((attempt) => attempt.costUsd);
    // 10k in at $3/M + 200 out at $15/M = $0.033; twice that for the second run.
    expect(runsOf(wifi.id)).toEqual([0.033, 0.066].map((usd) => expect.closeTo(usd, 10)));
    expect(runsOf(bluetooth.id)).toEqual([0, expect.closeTo(0.105, 10)]);
    expect(report.tasks[0]!.costUsd).toBeCloseTo(0.0495, 10);
    expect(report.tasks[1]!.costUsd).toBeCloseTo(0.0525, 10);
    expect(report.totals.costUsd).toBeCloseTo(0.204, 10);
    expect(report.median.costUsd).toBeCloseTo(0.0495, 10);

    const text = renderTable(report);
    expect(text).toMatch(/^Cost: claude-sonnet-4-6 at \$3\/\$15 per million input\/output tokens/m);
    expect(text).toMatch(new RegExp(`^${wifi.id} +FAIL 1/2 +0 +15k +\\$0\\.050 +`, 'm'));
    expect(totalsLine(report)).toMatch(/median per run 0 steps, 15k tokens, \$0\.050, 0\.0 s; cost \$0\.204 in all;/);
    const html = renderEvalHtml(report);
    expect(html).toContain('<td>$0.050</td>');
    expect(html).toContain('claude-sonnet-4-6 at $3/$15 per million');
    const compared = renderComparison(report, suite(UNLISTED, null), ['a.json', 'b.json']);
    // $0.0525 rounds half up to $0.053 (the locale formatter rounds the decimal amount, not its binary neighbour).
    expect(compared.split('\n').find((line) => line.startsWith(`${bluetooth.id} `))).toMatch(/FAIL 1\/2 0 steps \$0\.053 0\.0 s +FAIL 1\/2 0 steps — 0\.0 s/);
    expect(compared).toMatch(/^A: .*cost \$0\.204 in all;/m);
    expect(compared).not.toMatch(/^B: .*cost/m);
  });

  it('Scenario: A model missing from the price table shows no cost', () => {
    const report = suite(UNLISTED, null);
    expect(report.price).toBeNull();
    expect(report.tasks.flatMap((task) => [task.costUsd, ...task.attempts.map((attempt) => attempt.costUsd)]).every((usd) => usd === null)).toBe(true);
    expect(report.totals.costUsd).toBeNull();
    expect(report.median.costUsd).toBeNull();
    const text = renderTable(report);
    expect(text).toMatch(/^Cost: not shown, claude-unlisted-9 has no entry in the price table/m);
    expect(text).toMatch(new RegExp(`^${wifi.id} +FAIL 1/2 +0 +15k +— +`, 'm'));
    expect(text).not.toMatch(/\$\d/);
    expect(renderEvalHtml(report)).not.toMatch(/\$\d/);
  });

  it('reads results written before costs existed', () => {
    const report = JSON.parse(JSON.stringify(suite(SONNET, sonnetPrice))) as Record<string, unknown> & { tasks: Array<{ attempts: Array<Record<string, unknown>> }>; median: Record<string, unknown> };
    delete report.price;
    delete report.median.costUsd;
    for (const task of report.tasks) for (const attempt of task.attempts) delete attempt.costUsd;
    const parsed = EvalReportSchema.parse(report);
    expect(parsed.price).toBeNull();
    expect(parsed.tasks[0]!.attempts[0]!.costUsd).toBeNull();
  });
});
