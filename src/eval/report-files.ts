import { mkdir, writeFile } from 'node:fs/promises';
import { redactSecrets } from '@amc/provider-clients';
import path from 'node:path';
import { renderTaskReport } from '../core/storage/html-report';
import { renderEvalHtml } from './render';
import type { EvalAttempt } from './run-suite';
import { summarize, type EvalReport, type SummaryInput } from './summary';

/** File of one run's task report, relative to the eval report's folder. */
export const taskReportPath = (attempt: Pick<EvalAttempt, 'task' | 'attempt'>, repeat: number) =>
  `tasks/${attempt.task.id}${repeat > 1 ? `-${attempt.attempt}` : ''}.html`;

/**
 * Writes the suite's report into `folder`: index.html (one row per task), eval.json (the same document as
 * `--json`) and each run's task report (the same HTML as the app's export), and answers with the document.
 */
export async function writeEvalReport(folder: string, input: Omit<SummaryInput, 'reportOf'>): Promise<EvalReport> {
  const report = summarize({ ...input, reportOf: (attempt) => taskReportPath(attempt, input.repeat) });
  await mkdir(path.join(folder, 'tasks'), { recursive: true });
  await Promise.all(input.attempts.map((attempt) => writeFile(path.join(folder, taskReportPath(attempt, input.repeat)), renderTaskReport(attempt.record))));
  // Reports are shared: each passes the redaction step on its way to disk (the task reports do in renderTaskReport).
  await writeFile(path.join(folder, 'eval.json'), redactSecrets(`${JSON.stringify(report, null, 2)}\n`));
  await writeFile(path.join(folder, 'index.html'), redactSecrets(renderEvalHtml(report)));
  return report;
}
