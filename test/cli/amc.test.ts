import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { interrupt, runAmc, startAmc } from '../support/cli';
import { requireBuiltRenderer } from '../support/build';

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
