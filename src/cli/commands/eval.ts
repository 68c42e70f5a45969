import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError, type CliCommand, type CliIo } from '../command';
import { parseCommandArgs } from '../args';
import { ADB_OPTIONS_USAGE, adbForTask, adbOptions } from './devices';
import { configuredPlannerFor, maxStepsOf, PLANNER_OPTIONS_USAGE, plannerOptions, plannerOverrides } from '../planner-options';
import type { PhoneTask } from '../../eval/tasks/index';
import { terminalWords } from '../terminal-words';
import type { Words } from '../../shared/i18n/translate';
import { wordSaid } from '../../shared/said';
import { issueSaidAt } from '../../shared/issue-said';

const USAGE =
  `amc eval [--list] [--tasks ID,APP,PREFIX*,...] [--parallel N] [--repeat K] [--replay] [--json] [--out DIR] [--profile instant|realistic] ${PLANNER_OPTIONS_USAGE} ${ADB_OPTIONS_USAGE}\n` +
  '       amc eval --compare A.json B.json';

function wholeNumber(option: string, value: string | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) throw new UsageError(terminalWords().t('cli:usageError.wholeNumberFromTo', { option, min, max, value }));
  return number;
}

/** Each entry names a task id, an app (settings, contacts...) or an id prefix ending in `*`. */
function selectTasks(all: readonly PhoneTask[], filter: string | undefined): PhoneTask[] {
  if (filter === undefined) return [...all];
  const entries = filter.split(',').map((entry) => entry.trim()).filter(Boolean);
  const matchesEntry = (task: PhoneTask, entry: string) =>
    task.id === entry || task.app === entry || (entry.endsWith('*') && task.id.startsWith(entry.slice(0, -1)));
  const unknown = entries.filter((entry) => !all.some((task) => matchesEntry(task, entry)));
  if (entries.length === 0 || unknown.length) {
    const tasks = all.map((t) => t.id).join(', ');
    throw new UsageError(unknown.length ? terminalWords().t('cli:usageError.noTaskMatches', { unknown: unknown.map((e) => `"${e}"`).join(', '), tasks }) : terminalWords().t('cli:usageError.noTaskGiven', { tasks }));
  }
  return all.filter((task) => entries.some((entry) => matchesEntry(task, entry)));
}

/** Why a file is not a result: zod's own words for an English reader (as always), else each issue by its code. */
function issuesWords(issues: readonly Parameters<typeof issueSaidAt>[0][], words: Words): string {
  const english = (issue: (typeof issues)[number]) => `${issue.path.join('.') || 'document'}: ${issue.message}`;
  if (words.language === 'en') return issues.map(english).join('; ');
  return issues.map((issue) => wordSaid(english(issue), issueSaidAt(issue), words)).join(words.t('common:clauseSeparator'));
}

async function compare(files: string[], io: CliIo): Promise<number> {
  const words = terminalWords();
  const { EvalReportSchema } = await import('../../eval/summary');
  const { renderComparison } = await import('../../eval/render');
  const reports = await Promise.all(
    files.map(async (file) => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new UsageError(terminalWords().t('cli:usageError.cannotReadFile', { file, systemText: (error as Error).message }));
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new UsageError(terminalWords().t('cli:usageError.notEvalJson', { file }));
      }
      const parsed = EvalReportSchema.safeParse(json);
      if (!parsed.success) throw new UsageError(words.t('cli:usageError.notEvalResult', { file, issues: issuesWords(parsed.error.issues.slice(0, 3), words) }));
      return parsed.data;
    }),
  );
  io.out(renderComparison(reports[0]!, reports[1]!, [files[0]!, files[1]!], words));
  return ExitCode.ok;
}

/** `--list`: the tasks a run would take (all, or those `--tasks` selects), one a line, without running any. */
function listTasks(tasks: readonly PhoneTask[], io: CliIo): number {
  const { t } = terminalWords();
  const width = Math.max(...tasks.map((task) => task.id.length));
  for (const task of tasks) {
    const infeasible = task.infeasible ? t('cli:eval.infeasible') : '';
    io.out(t('cli:eval.listLine', { id: task.id.padEnd(width), app: task.app.padEnd(8), goal: task.goal, infeasible }));
  }
  io.out(t('cli:eval.taskCount', { count: tasks.length }));
  return ExitCode.ok;
}

export const evalCommand: CliCommand = {
  name: 'eval',
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        tasks: { type: 'string' },
        parallel: { type: 'string' },
        repeat: { type: 'string' },
        json: { type: 'boolean' },
        out: { type: 'string' },
        profile: { type: 'string' },
        compare: { type: 'boolean' },
        list: { type: 'boolean' },
        replay: { type: 'boolean' },
        ...plannerOptions,
        ...adbOptions,
      },
      true,
    );
    if (values.compare) {
      if (positionals.length !== 2) throw new UsageError(terminalWords().t('cli:usageError.compareTwoFiles'));
      return compare(positionals, io);
    }
    if (positionals.length) throw new UsageError(terminalWords().t('cli:usageError.unexpectedArgument', { value: positionals[0] }));
    const { PHONE_TASKS } = await import('../../eval/tasks/index');
    const tasks = selectTasks(PHONE_TASKS, values.tasks);
    if (values.list) return listTasks(tasks, io);
    const parallel = wholeNumber('--parallel', values.parallel, 1, 16, 1);
    const repeat = wholeNumber('--repeat', values.repeat, 1, 20, 1);
    const profile = values.profile ?? 'instant';
    if (profile !== 'instant' && profile !== 'realistic') throw new UsageError(terminalWords().t('cli:usageError.oneOf', { option: '--profile', accepted: 'instant, realistic', value: profile }));
    const maxSteps = maxStepsOf(values);
    const { config, configured } = await configuredPlannerFor(plannerOverrides(values));
    const words = terminalWords();
    const { t } = words;

    const { resolveAmcHome } = await import('../../core/storage/settings-store');
    const { runSuite } = await import('../../eval/run-suite');
    const { writeEvalReport } = await import('../../eval/report-files');
    const { renderTable } = await import('../../eval/render');
    const folder = path.resolve(values.out ?? path.join(resolveAmcHome(process.env), 'eval', new Date().toISOString().replace(/[:.]/g, '-')));
    const adb = await adbForTask(values, config.settings);
    // Text `input text` cannot type goes through yadb, then ADBKeyBoard, as in `amc run`.
    const { phoneHelpersFor } = await import('../../app/phone-typing');
    const { typing } = phoneHelpersFor({ adb: async () => adb, settings: async () => config.settings, home: resolveAmcHome(process.env) });

    const interrupt = new AbortController();
    const stop = () => interrupt.abort();
    process.once('SIGINT', stop);
    const startedAt = Date.now();
    const wallStart = performance.now();
    let attempts;
    try {
      attempts = await runSuite({
        config,
        adb,
        tasks,
        parallel,
        repeat,
        profile,
        ...(maxSteps && { maxSteps }),
        typing,
        signal: interrupt.signal,
        onProgress: (p) => io.status?.(t('cli:eval.progress', { done: p.done, total: p.total, passed: p.passed, running: p.running.join(', ') || '—' })),
      });
    } finally {
      process.off('SIGINT', stop);
      io.status?.(null);
    }
    const report = await writeEvalReport(folder, {
      attempts,
      planner: configured.planner.info,
      price: configured.policies?.price ?? null,
      startedAt,
      wallMs: performance.now() - wallStart,
      parallel: Math.min(parallel, tasks.length * repeat),
      repeat,
      complete: !interrupt.signal.aborted && attempts.length === tasks.length * repeat,
    });
    const reportLine = t('cli:eval.report', { file: path.join(folder, 'index.html') });
    if (values.json) {
      io.out(JSON.stringify(report));
      io.err(reportLine);
    } else {
      io.out(renderTable(report, words));
      io.out(reportLine);
    }
    let replaysPassed = true;
    if (values.replay && !interrupt.signal.aborted) {
      // Every success again, on fresh demo phones, without the model.
      const { replaySuccesses } = await import('../../eval/replay-suite');
      const round = await replaySuccesses({ config, adb, parallel, profile, ...(maxSteps && { maxSteps }), typing, signal: interrupt.signal }, attempts);
      replaysPassed = round.passed === round.attempts.length;
      const failed = round.attempts.filter((attempt) => !attempt.success).map((attempt) => t('cli:eval.replayFailedTask', { id: attempt.task.id, verdict: attempt.verdict }));
      const line = t('cli:eval.replayed', {
        passed: round.passed,
        count: round.attempts.length,
        calls: round.modelCalls,
        failed: failed.length ? t('cli:eval.replayFailed', { tasks: failed.join(t('common:clauseSeparator')) }) : '',
      });
      if (values.json) io.err(line);
      else io.out(line);
    }
    // A script (CI) reads the exit code: only a run in which every task passed (and, with --replay, every replay) is a pass.
    if (interrupt.signal.aborted) return ExitCode.cancelled;
    return report.passed === tasks.length && replaysPassed ? ExitCode.ok : ExitCode.failed;
  },
};
