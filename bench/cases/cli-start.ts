// How long `amc` takes to start, as a person types it: `node bin/amc.mjs --version` and `--help` (the command modules
// load only when their command runs), a command that stops at its options (`amc run --gaol`: loads `run` alone), and
// `npx amc --version` (npm's own start on top; a global install or `npm link` avoids it). "every command loaded" is
// what each `amc` start cost before the modules loaded lazily: the same start importing all of them.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, type BenchCase, type BenchRow } from '../types';

const name = 'cli-start';
const RUNS = 5;
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/amc.mjs', import.meta.url));

/** Every command module imported up front, then the version printed: the start before lazy loading. */
const EAGER_START = `
import { register } from 'tsx/esm/api';
register();
const { commands } = await import(${JSON.stringify(fileURLToPath(new URL('../../src/cli/commands/index.ts', import.meta.url)))});
await Promise.all(commands.map((command) => command.load()));
const { appVersion } = await import(${JSON.stringify(fileURLToPath(new URL('../../src/shared/app-info.ts', import.meta.url)))});
console.log(appVersion);
`;

/** Median wall time of `command` over RUNS runs, after one warm-up (tsx's compile cache filled). */
function startMs(command: string, args: string[]): number {
  const times: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const started = performance.now();
    const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
    if (result.error) throw result.error;
    if (run > 0) times.push(performance.now() - started);
  }
  return median(times);
}

const benchCase: BenchCase = {
  name,
  async run(): Promise<BenchRow[]> {
    const row = (metric: string, value: number, goal?: string): BenchRow => ({ case: name, metric, value: Math.round(value), unit: 'ms', ...(goal && { goal }) });
    return [
      row('node bin/amc.mjs --version', startMs(process.execPath, [bin, '--version']), 'under 1 s on a 2-core machine'),
      row('node bin/amc.mjs --version, every command loaded (before)', startMs(process.execPath, ['--input-type=module', '-e', EAGER_START])),
      row('node bin/amc.mjs --help', startMs(process.execPath, [bin, '--help'])),
      row('node bin/amc.mjs run --gaol x (loads run only)', startMs(process.execPath, [bin, 'run', '--gaol', 'x'])),
      row('npx amc --version', startMs('npx', ['--no-install', 'amc', '--version'])),
    ];
  },
};

export default benchCase;
