import { ENGLISH } from '../../shared/i18n/translate';
import { ExitCode, type CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { fleetRedis, REDIS_USAGE, redisOption } from '../fleet-options';
import { jobLines } from './submit';
import { jobCountWords, workWords } from '../../shared/fleet';

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
      if (overview.workers.length === 0) io.out('No worker has joined this fleet (start one with amc worker).');
      for (const worker of overview.workers) {
        io.out(`${worker.name} on ${worker.host}${worker.alive ? '' : ' — gone (no report for a while)'}`);
        for (const phone of worker.phones) {
          const state = worker.alive ? phone.state : 'offline';
          io.out(`  ${phone.serial}  ${state}${state === 'busy' && phone.jobId ? ` (job ${phone.jobId})` : ''}${phone.groups.length ? `  groups: ${phone.groups.join(', ')}` : ''}`);
        }
      }
      const { counts } = overview;
      io.out(`Jobs: ${jobCountWords(counts)}`);
      for (const job of overview.jobs) {
        if (job.state === 'queued' || job.state === 'running') io.out(`  ${job.state}: ${workWords(job, ENGLISH)} — ${job.target} (job ${job.id})`);
        else {
          const [line, ...steps] = jobLines(job);
          io.out(`  ${line} — ${workWords(job, ENGLISH)}`);
          for (const step of steps) io.out(step);
        }
      }
      return ExitCode.ok;
    } finally {
      await client.close();
    }
  },
};
