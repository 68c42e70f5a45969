import { escapeHtml } from '../core/storage/html-report';
import { formatUsd } from '../shared/prices';
import { formatCount, plannerWords } from '../shared/task-words';
import { ENGLISH, type Words } from '../shared/i18n/translate';
import { tableLines } from '../shared/terminal-columns';
import type { EvalReport, EvalTaskResult } from './summary';

const percent = (rate: number) => `${(rate * 100).toFixed(rate === 0 || rate === 1 ? 0 : 1)}%`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const tokens = (count: number) => (count >= 10_000 ? `${formatCount(count / 1000)}k` : formatCount(count));
/** A median over an even number of runs may fall between two whole numbers. */
const steps = (count: number) => (Number.isInteger(count) ? formatCount(count) : count.toFixed(1));
/** No price for the model means no cost, never a guessed one. */
const cost = (usd: number | null) => (usd === null ? '—' : formatUsd(usd));

const plannerName = (report: EvalReport, words: Words = ENGLISH) => plannerWords(report.planner, words);

/** Which price the costs come from, or why there are none. */
function priceLine(report: EvalReport, { t }: Words = ENGLISH): string {
  if (report.price) return t('cli:eval.price', { model: report.price.model, input: report.price.input, output: report.price.output });
  if (report.planner.kind === 'stub') return t('cli:eval.priceNoModel');
  return t('cli:eval.priceUnknown', { model: report.planner.model ?? t('cli:eval.theModel') });
}

const resultCell = (task: EvalTaskResult, repeat: number, { t }: Words = ENGLISH) =>
  t(task.success ? 'cli:eval.pass' : 'cli:eval.fail') + (repeat > 1 ? ` ${task.passes}/${task.attempts.length}` : '');

/** The table's column titles by their keys in `cli:eval.header`. */
const header = (columns: readonly string[], { t }: Words) => columns.map((column) => t(`cli:eval.header.${column}`));

/** The totals in one line: success rate with its interval, and the medians per run. */
export function totalsLine(report: EvalReport, { t }: Words = ENGLISH): string {
  const { low, high } = report.successInterval;
  const { median } = report;
  return t('cli:eval.totals', {
    passed: report.passed,
    count: report.tasks.length,
    rate: percent(report.successRate),
    low: percent(low),
    high: percent(high),
    passK: report.repeat > 1 ? t('cli:eval.passK', { repeat: report.repeat, rate: percent(report.runSuccessRate) }) : '',
    steps: steps(median.steps),
    tokens: tokens(median.tokens),
    medianCost: median.costUsd === null ? '' : t('cli:eval.medianCost', { cost: cost(median.costUsd) }),
    time: seconds(median.durationMs),
    allCost: report.totals.costUsd === null ? '' : t('cli:eval.allCost', { cost: cost(report.totals.costUsd) }),
    wall: seconds(report.wallMs),
    phones: t('cli:eval.phones', { count: report.parallel }),
    interrupted: report.complete ? '' : t('cli:eval.interrupted'),
  });
}

/** The table a person reads in the terminal: one row per task, then the totals. The validator's reasons stay its own words. */
export function renderTable(report: EvalReport, words: Words = ENGLISH): string {
  const rows = report.tasks.map((task) => [
    task.id,
    resultCell(task, report.repeat, words),
    steps(task.steps),
    tokens(task.tokens),
    cost(task.costUsd),
    seconds(task.durationMs),
    task.failureReason === null ? '' : words.t('cli:eval.failureReason', { reason: task.failureReason }),
  ]);
  const columns = header(['task', 'result', 'steps', 'tokens', 'cost', 'time', 'failureReason'], words);
  return [words.t('cli:eval.planner', { planner: plannerName(report, words) }), priceLine(report, words), '', ...tableLines(columns, rows, { rule: true }), '', totalsLine(report, words)].join('\n');
}

/** Two runs side by side, task by task, with the totals of each. */
export function renderComparison(a: EvalReport, b: EvalReport, names: [string, string], words: Words = ENGLISH): string {
  const { t } = words;
  const ids = [...new Set([...a.tasks, ...b.tasks].map((task) => task.id))];
  const cell = (report: EvalReport, id: string) => {
    const task = report.tasks.find((candidate) => candidate.id === id);
    if (!task) return t('cli:eval.notRun');
    return t('cli:eval.cell', { result: resultCell(task, report.repeat, words), count: task.steps, steps: steps(task.steps), cost: cost(task.costUsd), time: seconds(task.durationMs) });
  };
  const changed = (id: string) => a.tasks.find((task) => task.id === id)?.success !== b.tasks.find((task) => task.id === id)?.success;
  const rows = ids.map((id) => [id, cell(a, id), cell(b, id), changed(id) ? '*' : '']);
  const [task, differs] = header(['task', 'differs'], words);
  return [
    `A: ${names[0]} — ${plannerName(a, words)}`,
    `B: ${names[1]} — ${plannerName(b, words)}`,
    '',
    ...tableLines([task!, 'A', 'B', differs!], rows, { rule: true }),
    '',
    `A: ${totalsLine(a, words)}`,
    `B: ${totalsLine(b, words)}`,
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
