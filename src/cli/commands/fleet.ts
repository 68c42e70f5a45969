import { ExitCode, type CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { fleetRedis, REDIS_USAGE, redisOption } from '../fleet-options';
import { jobLines } from './submit';
import { jobCountWords, targetWords, workWords } from '../../shared/fleet';
import { terminalWords } from '../terminal-words';

const USAGE = `amc fleet ${REDIS_USAGE} [--json]`;

export const fleetCommand: CliCommand = {
  name: 'fleet',
  usage: USAGE,
  async run(args, io) {
    const { values } = parseCommandArgs(args, { ...redisOption, json: { type: 'boolean' } });
    const redis = await fleetRedis(values);
    const { FleetClient } = await import('../../fleet/client');
    const client = await FleetClient.open(redis);
    try {
      const overview = await client.overview();
      if (values.json) {
        io.out(JSON.stringify(overview));
        return ExitCode.ok;
      }
      const words = terminalWords();
      const { t } = words;
      if (overview.workers.length === 0) io.out(t('app:fleet.noWorker'));
      for (const worker of overview.workers) {
        io.out(`${worker.name} ${t('app:fleet.on', { host: worker.host })}${worker.alive ? '' : ` ${t('app:fleet.gone')}`}`);
        for (const phone of worker.phones) {
          const state = worker.alive ? phone.state : 'offline';
          const job = state === 'busy' && phone.jobId ? t('cli:fleet.phoneJob', { id: phone.jobId }) : '';
          io.out(`  ${phone.serial}  ${t(`app:fleet.phoneState.${state}`)}${job}${phone.groups.length ? `  ${t('app:fleet.groups', { groups: phone.groups.join(t('common:listSeparator')) })}` : ''}`);
        }
      }
      io.out(t('cli:fleet.jobs', { counts: jobCountWords(overview.counts, words) }));
      for (const job of overview.jobs) {
        if (job.state === 'queued' || job.state === 'running') {
          io.out(`  ${t('cli:fleet.waiting', { state: t(`cli:submit.state.${job.state}`), work: workWords(job, words), target: targetWords(job.target, words), id: job.id })}`);
        } else {
          const [line, ...steps] = jobLines(job, words);
          io.out(`  ${line} — ${workWords(job, words)}`);
          for (const step of steps) io.out(step);
        }
      }
      return ExitCode.ok;
    } finally {
      await client.close();
    }
  },
};
