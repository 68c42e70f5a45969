import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { interrupt, runAmc, startAmc } from '../support/cli';
import { requireBuiltRenderer } from '../support/build';
import { main } from '../../src/cli/main';
import { PHONE_TASKS } from '../../src/eval/tasks/index';

/** Runs `amc` in this process (for commands that fail or answer before touching a phone). */
async function amcHere(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const packageVersion = JSON.parse(readFileSync('package.json', 'utf8')).version as string;

describe('amc CLI', () => {
  it('Scenario: amc --help lists the commands', async () => {
    const result = await runAmc(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: amc <command>');
    expect(result.stdout).toMatch(/\n\s+serve\s+serve the app UI/);
  });

  it('Scenario: amc --version prints the version', async () => {
    const result = await runAmc(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${packageVersion}\n` });
  });

  it('Scenario: A usage mistake exits with code 2 and says what is wrong', async () => {
    const unknown = await runAmc(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const badPort = await runAmc(['serve', '--port', 'seventy']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port must be a whole number');
  });

  it('Scenario: A mistyped option or command gets a "did you mean"', async () => {
    const option = await amcHere(['run', '--gaol', 'Turn on Wi-Fi']);
    expect(option.code).toBe(2);
    expect(option.err).toMatch(/^amc run: unknown option --gaol \(did you mean --goal\?\);/);
    const command = await amcHere(['rn', '--goal', 'x']);
    expect(command.code).toBe(2);
    expect(command.err).toContain('unknown command "rn" (did you mean `amc run`?)');
    // Nothing close: no guess.
    expect((await amcHere(['run', '--zzzzzz'])).err).not.toContain('did you mean');
    expect((await amcHere(['frobnicate'])).err).not.toContain('did you mean');
  });

  it('Scenario: amc eval --list lists the tasks without running any', async () => {
    const all = await amcHere(['eval', '--list']);
    expect(all.code).toBe(0);
    for (const task of PHONE_TASKS) expect(all.out).toMatch(new RegExp(`^${task.id} +${task.app} +${task.goal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
    expect(all.out).toMatch(new RegExp(`^${PHONE_TASKS.length} tasks$`, 'm'));
    const clock = await amcHere(['eval', '--list', '--tasks', 'clock']);
    expect(clock.out.split('\n').filter((line) => line.startsWith('clock-')).length).toBe(PHONE_TASKS.filter((t) => t.app === 'clock').length);
    expect(clock.out).not.toContain('settings-');
  });

  it('Scenario: amc loads a command module only when that command runs', () => {
    const loadedBy = (...argv: string[]) => execFileSync(process.execPath, ['test/support/loaded-modules.mjs', ...argv], { encoding: 'utf8' }).trim().split('\n');
    const commandModules = (modules: string[]) => modules.filter((module) => module.startsWith('cli/commands/') && module !== 'cli/commands/index.ts');
    expect(commandModules(loadedBy('--version'))).toEqual([]);
    expect(commandModules(loadedBy('--help'))).toEqual([]);
    // Nor the settings, zod or the runtime for a start that prints the version.
    expect(loadedBy('--version').filter((module) => module.startsWith('main/') || module === 'shared/settings.ts')).toEqual([]);
    const run = commandModules(loadedBy('run', '--gaol', 'x'));
    expect(run).toContain('cli/commands/run.ts');
    expect(run).not.toContain('cli/commands/eval.ts');
    expect(run).not.toContain('cli/commands/control-plane.ts');
  }, 60_000);

  it('Scenario: amc serve prints its URL with the token', async () => {
    requireBuiltRenderer();
    const { child, match } = await startAmc(['serve'], /serving at (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/);
    try {
      const url = new URL(match[1]!);
      const page = await fetch(url.origin);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    } finally {
      expect(await interrupt(child)).toBe(0);
    }
  });
});
