import { ExitCode, UsageError, type CliCommand } from '../command';
import { parseCommandArgs, wholeNumber } from '../args';
import { ADB_OPTIONS_USAGE, adbForTask, adbOptions } from './devices';
import { fleetRedis, REDIS_USAGE, redisOption } from '../fleet-options';
import { configuredPlannerFor } from '../planner-options';
import { deviceGroupsOf, groupsOfPhone } from '../../shared/device-groups';
import { terminalWords } from '../terminal-words';

const USAGE = `amc worker ${REDIS_USAGE} [--name NAME] [--serial SERIAL]... [--group NAME]... [--concurrency N] [--lock-seconds N] [--no-idle-reading] ${ADB_OPTIONS_USAGE}`;

export const workerCommand: CliCommand = {
  name: 'worker',
  usage: USAGE,
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      ...redisOption,
      name: { type: 'string' },
      serial: { type: 'string', multiple: true },
      group: { type: 'string', multiple: true },
      concurrency: { type: 'string' },
      'lock-seconds': { type: 'string' },
      // Idle phones are read ahead of their next job (a screencap every 2-6 s each); this spares their battery instead.
      'no-idle-reading': { type: 'boolean' },
      ...adbOptions,
    });
    const redis = await fleetRedis(values);
    const concurrency = wholeNumber(values.concurrency, '--concurrency', 1, 1000);
    const lockSeconds = wholeNumber(values['lock-seconds'], '--lock-seconds', 1, 3600);
    // A configuration that cannot run a task stops here, before the worker joins the fleet.
    const { config } = await configuredPlannerFor({});
    const adb = await adbForTask(values, config.settings);
    const readySerials = async () => new Set((await adb.listDevices()).filter((device) => device.state === 'device').map((device) => device.serial));
    const serials = values.serial?.length ? [...new Set(values.serial)] : [...(await readySerials())];
    if (serials.length === 0) throw new UsageError(terminalWords().t('cli:devices.noneToOffer'));
    // --group puts every offered phone in the group; the Device groups setting names the groups of each phone.
    const declaredGroups = deviceGroupsOf(config.settings.fleet.deviceGroups);
    const groupsOf = (serial: string) => [...new Set([...(values.group ?? []), ...groupsOfPhone(declaredGroups, serial)])];
    const { fleetJobRunner, jobRefusal } = await import('../fleet-job-runner');
    const { FleetWorker } = await import('../../fleet/worker');
    const { redisLabel } = await import('../../fleet/redis');
    const jobs = await fleetJobRunner(adb, io.out, serials, { readIdlePhones: !values['no-idle-reading'] });
    try {
      const worker = new FleetWorker({
        redis,
        ...(values.name && { name: values.name }),
        serials,
        groupsOf,
        ...(concurrency && { concurrency }),
        ...(lockSeconds && { lockDurationMs: lockSeconds * 1000 }),
        readySerials,
        runJob: jobs.runJob,
        refuse: await jobRefusal(),
        words: terminalWords(),
        say: io.out,
      });
      await worker.start();
      const groupsLine = serials.filter((serial) => groupsOf(serial).length).map((serial) => `${serial}: ${groupsOf(serial).join(', ')}`);
      const { t } = terminalWords();
      const offered = { name: worker.name, serials: serials.join(', '), groups: groupsLine.join('; '), redis: redisLabel(redis) };
      io.out(t(groupsLine.length ? 'cli:worker.offersInGroups' : 'cli:worker.offers', offered));
      // Ctrl-C or SIGTERM: running tasks are stopped (they end cancelled and say why), the worker leaves the fleet.
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      io.out(t('cli:worker.stopping'));
      await worker.close();
    } finally {
      await jobs.close();
    }
    return ExitCode.ok;
  },
};
