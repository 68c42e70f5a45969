import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/shared/prices';
import { formatCount, formatDuration, tokensLabel } from '../../src/shared/task-words';

const run = promisify(execFile);

interface Words {
  report: string;
  finished: string;
  outcome: string;
  /** The HTML report of the same task with a cost recorded. */
  costlyReport: string;
  /** `amc run`'s tokens-and-cost line for one turn. */
  turnCost: string;
}

/** What the HTML report and `amc run`'s lines say for the same task when the machine's locale is `locale`. */
async function wordsUnder(locale: string): Promise<Words> {
  const script = `
    import { renderTaskReport } from './src/core/storage/html-report.ts';
    import { finishedLine, outcomeLine } from './src/cli/task-lines.ts';
    import { supervisionPrinter } from './src/cli/run-report.ts';
    import { applyTaskEvent, newTaskRecord } from './src/shared/task.ts';
    import { taskEvents } from './test/core/storage/task-fixtures.ts';
    const events = taskEvents('r1');
    const start = events[0];
    const finished = { ...events.at(-1), durationMs: 74_611_000 - 73_400_500, usage: { inputTokens: 74611, outputTokens: 1500 } };
    // The record sums its turns' usage; a long task's totals are set here directly.
    const folded = [...events.slice(0, -1), finished].reduce(applyTaskEvent, newTaskRecord({ id: 'r1', goal: start.goal, serial: start.serial, planner: start.planner, maxSteps: start.maxSteps, createdAt: start.at }));
    const record = { ...folded, usage: finished.usage };
    const lines = [];
    supervisionPrinter({ out: (line) => lines.push(line) })({ type: 'step.planned', usage: { inputTokens: 1000, outputTokens: 100 }, costUsd: 0.0045 });
    console.log(JSON.stringify({
      report: renderTaskReport(record),
      costlyReport: renderTaskReport({ ...record, costUsd: 1234.5 }),
      turnCost: lines.join(' / '),
      finished: finishedLine(finished, start.planner),
      outcome: outcomeLine({ ok: true, attempts: 1, durationMs: 1500 }),
    }));`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: path.resolve('.'),
    env: { PATH: process.env.PATH, LC_ALL: locale },
  });
  return JSON.parse(stdout) as Words;
}

describe("numbers in the reader's locale", { timeout: 60_000 }, () => {
  it("Scenario: Durations and counts are formatted in the reader's locale on every surface", async () => {
    // One way to word a duration, for the timeline, History, the report and the CLI.
    expect(formatDuration(850.4, 'en-US')).toBe('850 ms');
    expect(formatDuration(1_500, 'en-US')).toBe('1.5 s');
    expect(formatDuration(1_500, 'de-DE')).toBe('1,5 s');
    expect(formatDuration(12_400, 'en-US')).toBe('12 s');
    expect(formatDuration(119_600, 'en-US')).toBe('2 min 0 s');
    expect(formatDuration(7_265_000, 'de-DE')).toBe('121 min 5 s');
    expect(formatDuration(null)).toBe('—');
    expect(formatCount(74_611, 'de-DE')).toBe('74.611');
    expect(tokensLabel({ inputTokens: 74_611, outputTokens: 1_500 }, 'en-US')).toBe('74,611 tokens in · 1,500 out');

    // The report and `amc run` follow the machine's locale (the window follows the browser's).
    const german = await wordsUnder('de_DE.UTF-8');
    expect(german.finished).toMatch(/^Done \(1 action, 20 min 11 s, 74\.611 tokens in · 1\.500 out\)/);
    expect(german.outcome).toBe('    -> ok (1,5 s)');
    expect(german.report).toContain('74.611 tokens in · 1.500 out');
    expect(german.report).toContain('20 min 11 s');
    const american = await wordsUnder('en_US.UTF-8');
    expect(american.finished).toMatch(/^Done \(1 action, 20 min 11 s, 74,611 tokens in · 1,500 out\)/);
    expect(american.outcome).toBe('    -> ok (1.5 s)');
    expect(american.report).toContain('74,611 tokens in · 1,500 out');
  });

  it("Scenario: Costs are formatted in the reader's locale on every surface", async () => {
    // The same digits as before in English: more of them for tiny amounts.
    expect(formatUsd(0, 'en-US')).toBe('$0');
    expect(formatUsd(0.0045, 'en-US')).toBe('$0.0045');
    expect(formatUsd(0.05, 'en-US')).toBe('$0.050');
    expect(formatUsd(1234.5, 'en-US')).toBe('$1,234.50');
    // German puts the sign after the amount (a no-break space between) and swaps the separators.
    expect(formatUsd(0.0045, 'de-DE')).toBe('0,0045\u00a0$');
    expect(formatUsd(0.05, 'de-DE')).toBe('0,050\u00a0$');
    expect(formatUsd(1234.5, 'de-DE')).toBe('1.234,50\u00a0$');

    // The report and `amc run` follow the machine's locale, as for durations and counts.
    const german = await wordsUnder('de_DE.UTF-8');
    expect(german.turnCost).toBe('    tokens: 1.000 in / 100 out, 1.000 / 100 so far · cost 0,0045\u00a0$, 0,0045\u00a0$ so far');
    expect(german.costlyReport).toContain('1.234,50\u00a0$');
    const american = await wordsUnder('en_US.UTF-8');
    expect(american.turnCost).toBe('    tokens: 1,000 in / 100 out, 1,000 / 100 so far · cost $0.0045, $0.0045 so far');
    expect(american.costlyReport).toContain('$1,234.50');
  });
});
