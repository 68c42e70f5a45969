import { escapeHtml } from '../core/storage/html-report';
import { formatUsd } from '../shared/prices';
import { formatCount, plannerWords } from '../shared/task-words';
import type { EvalReport, EvalTaskResult } from './summary';

const percent = (rate: number) => `${(rate * 100).toFixed(rate === 0 || rate === 1 ? 0 : 1)}%`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const tokens = (count: number) => (count >= 10_000 ? `${formatCount(count / 1000)}k` : formatCount(count));
/** A median over an even number of runs may fall between two whole numbers. */
const steps = (count: number) => (Number.isInteger(count) ? formatCount(count) : count.toFixed(1));
/** No price for the model means no cost, never a guessed one. */
const cost = (usd: number | null) => (usd === null ? '—' : formatUsd(usd));

const plannerName = (report: EvalReport) => plannerWords(report.planner);

/** Which price the costs come from, or why there are none. */
function priceLine(report: EvalReport): string {
  if (report.price) return `Cost: ${report.price.model} at $${report.price.input}/$${report.price.output} per million input/output tokens (the price table in Settings)`;
  if (report.planner.kind === 'stub') return 'Cost: none (no model)';
  return `Cost: not shown, ${report.planner.model ?? 'the model'} has no entry in the price table (Settings → Limits)`;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

const resultCell = (task: EvalTaskResult, repeat: number) => (task.success ? 'pass' : 'FAIL') + (repeat > 1 ? ` ${task.passes}/${task.attempts.length}` : '');

/** The totals in one line: success rate with its interval, and the medians per run. */
export function totalsLine(report: EvalReport): string {
  const { low, high } = report.successInterval;
  const { median } = report;
  const passK = report.repeat > 1 ? ` (pass^${report.repeat}; ${percent(report.runSuccessRate)} of single runs)` : '';
  return (
    `${report.passed}/${report.tasks.length} tasks passed: ${percent(report.successRate)} [95% CI ${percent(low)}–${percent(high)}]${passK}; ` +
    `median per run ${steps(report.median.steps)} steps, ${tokens(report.median.tokens)} tokens, ${median.costUsd === null ? '' : `${cost(median.costUsd)}, `}${seconds(report.median.durationMs)}; ` +
    (report.totals.costUsd === null ? '' : `cost ${cost(report.totals.costUsd)} in all; `) +
    `wall time ${seconds(report.wallMs)} on ${report.parallel} phone${report.parallel === 1 ? '' : 's'}${report.complete ? '' : ' (interrupted)'}`
  );
}

/** The table a person reads in the terminal: one row per task, then the totals. */
export function renderTable(report: EvalReport): string {
  const rows = report.tasks.map((task) => [
    task.id,
    resultCell(task, report.repeat),
    steps(task.steps),
    tokens(task.tokens),
    cost(task.costUsd),
    seconds(task.durationMs),
    task.failureReason ?? '',
  ]);
  return [`Planner: ${plannerName(report)}`, priceLine(report), '', ...table(['task', 'result', 'steps', 'tokens', 'cost', 'time', 'failure reason'], rows), '', totalsLine(report)].join('\n');
}

/** Two runs side by side, task by task, with the totals of each. */
export function renderComparison(a: EvalReport, b: EvalReport, names: [string, string]): string {
  const ids = [...new Set([...a.tasks, ...b.tasks].map((task) => task.id))];
  const cell = (report: EvalReport, id: string) => {
    const task = report.tasks.find((candidate) => candidate.id === id);
    return task ? `${resultCell(task, report.repeat)} ${steps(task.steps)} step${task.steps === 1 ? '' : 's'} ${cost(task.costUsd)} ${seconds(task.durationMs)}` : 'not run';
  };
  const changed = (id: string) => a.tasks.find((t) => t.id === id)?.success !== b.tasks.find((t) => t.id === id)?.success;
  const rows = ids.map((id) => [id, cell(a, id), cell(b, id), changed(id) ? '*' : '']);
  return [
    `A: ${names[0]} — ${plannerName(a)}`,
    `B: ${names[1]} — ${plannerName(b)}`,
    '',
    ...table(['task', 'A', 'B', 'differs'], rows),
    '',
    `A: ${totalsLine(a)}`,
    `B: ${totalsLine(b)}`,
  ].join('\n');
}

const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/** The suite's HTML report: the totals and one row per task, each run linking to its own task report. */
export function renderEvalHtml(report: EvalReport): string {
  const rows = report.tasks
    .map((task) => {
      const runs = task.attempts
        .map((run) => (run.report ? `<a href="${escapeHtml(run.report)}">${report.repeat > 1 ? `run ${run.attempt}` : 'report'}</a>` : ''))
        .join(' ');
      return (
        `<tr class="${task.success ? 'pass' : 'fail'}"><td>${escapeHtml(task.id)}</td><td>${escapeHtml(task.goal)}</td>` +
        `<td>${resultCell(task, report.repeat)}</td><td>${steps(task.steps)}</td><td>${tokens(task.tokens)}</td><td>${cost(task.costUsd)}</td>` +
        `<td>${seconds(task.durationMs)}</td><td>${escapeHtml(task.failureReason ?? '')}</td><td>${runs}</td></tr>`
      );
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<title>amc eval — ${escapeHtml(plannerName(report))}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1b1f24}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}
tr.pass td:nth-child(3){color:#1a7f37;font-weight:600}tr.fail td:nth-child(3){color:#cf222e;font-weight:600}
.totals{font-size:1.05rem;margin:1rem 0}
</style></head>
<body>
<h1>amc eval</h1>
<p>Planner: ${escapeHtml(plannerName(report))} · started ${escapeHtml(new Date(report.startedAt).toISOString())}</p>
<p class="price">${escapeHtml(priceLine(report))}</p>
<p class="totals">${escapeHtml(totalsLine(report))}</p>
<table><thead><tr><th>task</th><th>goal</th><th>result</th><th>steps</th><th>tokens</th><th>cost</th><th>time</th><th>failure reason</th><th>task report</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}
