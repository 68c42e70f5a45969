import { ExitCode, UsageError, type CliCommand, type CliIo } from '../command';
import { parseCommandArgs, wholeNumber } from '../args';
import { destinationOf, destinationOptions, DESTINATION_USAGE, fleetRedis, REDIS_USAGE, redisOption } from '../fleet-options';
import { maxStepsOf } from '../planner-options';
import { allowedAppsOf, presetAnswers, SUPERVISION_OPTIONS_USAGE, supervisionOptions } from '../supervision-options';
import { BrokenFlowFile, WORK_USAGE, workOf, workOptions } from '../fleet-work';
import { flowStepLines, stepsPassedWords } from '../flow-steps';
import { jobCounts, jobCountWords, jobSucceeded, jobVerdict, targetWords } from '../../shared/fleet';
import { countOf, formatDuration, outcomeWord } from '../../shared/task-words';
import type { JobView } from '../../fleet/client';
import { ENGLISH, type Words } from '../../shared/i18n/translate';
import { saidWords } from '../../shared/supervision-words';
import { failureWordsOf } from '../../shared/task-failure';
import { terminalWords } from '../terminal-words';

const USAGE = `amc submit ${REDIS_USAGE} ${WORK_USAGE} ${DESTINATION_USAGE} [--max-steps N] ${SUPERVISION_OPTIONS_USAGE} [--wait [--timeout SECONDS]] [--json]`;

/** A job's verdict in words; a flow job's says how many of its steps passed. */
function outcomeWords(view: JobView, words: Words): string {
  const verdict = jobVerdict(view);
  const outcome = verdict ? outcomeWord(verdict, words) : words.t(`cli:submit.state.${view.state}`);
  const steps = view.result?.flowSteps;
  return steps ? words.t('cli:submit.outcomeSteps', { outcome, steps: stepsPassedWords(steps, words) }) : outcome;
}

/** One line per ended job: the phone, its outcome and what it cost; a flow job's step verdicts follow it, one a line. */
export function jobLines(view: JobView, words: Words = ENGLISH): string[] {
  const steps = view.result?.flowSteps;
  return [jobLine(view, words), ...(steps ? flowStepLines(steps, '    ', words) : [])];
}

function jobLine(view: JobView, words: Words): string {
  const { t } = words;
  const result = view.result;
  if (!result) {
    const reason = view.reason === null ? t('cli:submit.noResult') : saidWords(view.reason, view.reasonSaid, words);
    return t('cli:submit.unended', { target: targetWords(view.target, words), state: t(`cli:submit.state.${view.state}`), reason, id: view.id });
  }
  return t('cli:submit.job', {
    serial: result.serial,
    outcome: outcomeWords(view, words),
    why: result.failureReason ? ` — ${saidWords(failureWordsOf(result) ?? '', result.failureSaid, words)}` : '',
    actions: countOf(result.steps, 'action', undefined, words),
    tokens: result.inputTokens + result.outputTokens,
    cost: result.costUsd === null ? '' : `, $${result.costUsd.toFixed(4)}`,
    duration: formatDuration(result.durationMs, undefined, words),
    worker: result.worker,
    interrupted: result.interruptedOn.length ? t('cli:submit.interrupted', { workers: result.interruptedOn.join(t('common:listSeparator')) }) : '',
    id: view.id,
  });
}

function printQueued(io: CliIo, json: boolean, jobs: Array<{ id: string; serial: string | null }>, words: Words): void {
  for (const job of jobs) {
    if (json) io.out(JSON.stringify({ type: 'job.queued', id: job.id, serial: job.serial }));
    else io.out(job.serial === null ? words.t('cli:submit.queuedAny', { id: job.id }) : words.t('cli:submit.queued', { id: job.id, serial: job.serial }));
  }
}

export const submitCommand: CliCommand = {
  name: 'submit',
  usage: USAGE,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      ...redisOption,
      ...workOptions,
      ...destinationOptions,
      'max-steps': { type: 'string' },
      ...supervisionOptions,
      wait: { type: 'boolean' },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
    });
    const destination = destinationOf(values);
    const timeoutSeconds = wholeNumber(values.timeout, '--timeout', 1, 7 * 24 * 3600);
    if (timeoutSeconds !== undefined && !values.wait) throw new UsageError(terminalWords().t('cli:usageError.timeoutNeedsWait'));
    let work;
    try {
      work = await workOf(values);
    } catch (error) {
      // A broken flow file is refused as `amc flow check` refuses it, before the fleet is even reached: nothing is queued.
      if (!(error instanceof BrokenFlowFile)) throw error;
      io.err(`amc submit: ${error.message}`);
      return ExitCode.usage;
    }
    const redis = await fleetRedis(values);
    const maxSteps = maxStepsOf(values);
    const allowedApps = allowedAppsOf(values);
    const { FleetClient, FleetRequestError } = await import('../../fleet/client');
    const client = await FleetClient.open(redis);
    try {
      const job = { ...work, yes: values.yes ?? false, answers: presetAnswers(values), ...(maxSteps && { maxSteps }), ...(allowedApps && { allowedApps }) };
      let jobs;
      try {
        jobs = await client.submit(job, destination);
      } catch (error) {
        if (error instanceof FleetRequestError) throw new UsageError(saidWords(error.message, error.said, terminalWords()));
        throw error;
      }
      const words = terminalWords();
      printQueued(io, values.json ?? false, jobs, words);
      if (!values.wait) return ExitCode.ok;
      // Ctrl-C stops the waiting, not the jobs: they run on, and `amc fleet` shows them.
      const controller = new AbortController();
      const interrupt = () => controller.abort();
      process.once('SIGINT', interrupt);
      try {
        const ended = await client.wait(jobs, (view) => (values.json ? io.out(JSON.stringify({ type: 'job.ended', ...view })) : jobLines(view, words).forEach((line) => io.out(line))), {
          signal: controller.signal,
          ...(timeoutSeconds !== undefined && { timeoutMs: timeoutSeconds * 1000 }),
          onRedisProblem: (saying) => io.err(`amc submit: ${saidWords(saying.text, saying.said, words)}`),
        });
        if (controller.signal.aborted) {
          io.err(words.t('cli:submit.stoppedWaiting'));
          return ExitCode.cancelled;
        }
        const passed = ended.filter(jobSucceeded).length;
        if (!values.json) io.out(words.t('cli:submit.ended', { passed, count: jobs.length, counts: jobCountWords(jobCounts(ended), words) }));
        return passed === jobs.length ? ExitCode.ok : ExitCode.failed;
      } finally {
        process.off('SIGINT', interrupt);
      }
    } finally {
      await client.close();
    }
  },
};
