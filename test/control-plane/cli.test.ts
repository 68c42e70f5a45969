import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAmc, runAmc } from '../support/cli';
import { startProviderFake, type FakeReply, type ProviderFake } from '../fakes/index';
import { decisionRequest, deferred, startTestControlPlane } from './support';

let dir: string;
let tokensFile: string;
const fakes: ProviderFake[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'amc-cp-cli-'));
  tokensFile = path.join(dir, 'tokens.json');
});
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  await rm(dir, { recursive: true, force: true });
});

const env = () => ({ AMC_CP_TOKENS_FILE: tokensFile, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', AMC_CP_SECRETS_FILE: '' });

describe('amc control-plane token', () => {
  it('creates (printing the token once), lists without secrets, and revokes', async () => {
    const created = await runAmc(['control-plane', 'token', 'create', '--name', 'laptop', '--provider', 'openai', '--model', 'gpt-x'], {
      env: env(),
    });
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^amc_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toContain('shown only this once');
    const id = token.split('_')[1]!;
    expect((await stat(tokensFile)).mode & 0o777).toBe(0o600);
    expect(await readFile(tokensFile, 'utf8')).not.toContain(token.split('_').slice(2).join('_'));

    const listed = await runAmc(['control-plane', 'token', 'list', '--tokens', tokensFile]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+laptop\\s+active\\s+\\S+\\s+openai gpt-x`));
    expect(listed.stdout).not.toContain('sha256');

    const revoked = await runAmc(['control-plane', 'token', 'revoke', id], { env: env() });
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked token ${id}`);
    const json = await runAmc(['control-plane', 'token', 'list', '--json'], { env: env() });
    expect(JSON.parse(json.stdout.trim())).toMatchObject({ id, name: 'laptop', revokedAt: expect.any(String), provider: 'openai' });
  });

  it('exits 2 with a clear message on usage and store mistakes', async () => {
    const badProvider = await runAmc(['control-plane', 'token', 'create', '--provider', 'gemini'], { env: env() });
    expect(badProvider.code).toBe(2);
    expect(badProvider.stderr).toContain('--provider must be one of anthropic, openai, got "gemini"');
    const unknownId = await runAmc(['control-plane', 'token', 'revoke', 'abc'], { env: env() });
    expect(unknownId.code).toBe(2);
    expect(unknownId.stderr).toContain('no token with id or name "abc"');
    const noAction = await runAmc(['control-plane', 'token'], { env: env() });
    expect(noAction.code).toBe(2);
    expect(noAction.stderr).toContain('create, revoke or list');
    await writeFile(tokensFile, '[1, 2');
    const corrupt = await runAmc(['control-plane', 'token', 'list'], { env: env() });
    expect(corrupt.code).toBe(2);
    expect(corrupt.stderr).toContain('is not valid JSON');
    const badConfig = await runAmc(['control-plane', '--port', '0'], { env: { ...env(), AMC_CP_UPSTREAM_TIMEOUT_SECONDS: 'soon' } });
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toContain('AMC_CP_UPSTREAM_TIMEOUT_SECONDS="soon"');
  });
});

describe('amc control-plane token files and usage', () => {
  it('Scenario: The tokens file defaults to the data folder', async () => {
    const home = path.join(dir, 'home');
    const elsewhere = path.join(dir, 'elsewhere');
    await mkdir(elsewhere);
    const noFileEnv = { AMC_HOME: home, AMC_CP_TOKENS_FILE: '', AMC_CP_CONFIG: '' };
    const created = await runAmc(['control-plane', 'token', 'create', '--name', 'laptop'], { env: noFileEnv, cwd: elsewhere });
    expect(created.code, created.stderr).toBe(0);
    const defaultFile = path.join(home, 'control-plane', 'tokens.json');
    expect(created.stderr).toContain(`in ${defaultFile}`);
    expect((await stat(defaultFile)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(defaultFile))).mode & 0o777).toBe(0o700);
    // Nothing lands in the folder the command ran from.
    expect(await readdir(elsewhere)).toEqual([]);

    const chosen = path.join(dir, 'chosen', 'tokens.json');
    const other = await runAmc(['control-plane', 'token', 'create', '--name', 'ci', '--tokens', chosen], { env: noFileEnv, cwd: elsewhere });
    expect(other.code, other.stderr).toBe(0);
    expect((await stat(chosen)).mode & 0o777).toBe(0o600);
    const listed = await runAmc(['control-plane', 'token', 'list', '--json', '--tokens', chosen], { env: noFileEnv });
    expect(listed.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { name: string }).name)).toEqual(['ci']);
  });

  it('Scenario: Usage per token is printed as a table', async () => {
    const cp = await startTestControlPlane({
      policy: () => ({ kind: 'call', tool: 'tap', args: { element_id: 'e1' } }),
      config: { pricing: { 'fake-anthropic-model': { inputPerMillion: 3, outputPerMillion: 15 } } },
    });
    try {
      const usages: Array<{ inputTokens: number; outputTokens: number }> = [];
      for (let i = 0; i < 2; i++) usages.push(((await (await cp.post(decisionRequest())).json()) as { usage: { inputTokens: number; outputTokens: number } }).usage);
      await cp.service.close();
      const shown = await runAmc(['control-plane', 'usage', '--token', 'test-host', '--tokens', cp.config.tokensFile]);
      expect(shown.code, shown.stderr).toBe(0);
      const input = usages.reduce((sum, u) => sum + u.inputTokens, 0);
      const output = usages.reduce((sum, u) => sum + u.outputTokens, 0);
      const cost = ((input * 3 + output * 15) / 1_000_000).toFixed(4);
      const today = new Date().toISOString().slice(0, 10);
      expect(shown.stdout).toMatch(new RegExp(`${cp.tokenId}\\s+test-host\\s+${today}\\s+2\\s+${input}\\s+${output}\\s+${cost}`));
      expect(shown.stdout).toMatch(new RegExp(`${cp.tokenId}\\s+test-host\\s+${today.slice(0, 7)}\\s+2\\s+`));
      const unknown = await runAmc(['control-plane', 'usage', '--token', 'nobody', '--tokens', cp.config.tokensFile]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('no token with id or name "nobody"');
    } finally {
      await cp.stop();
    }
  });
});

describe('amc control-plane (serve)', () => {
  it('Scenario: Every worker refuses new decisions until the last in-flight one is done; Scenario: Two workers on the file store keep one usage count (serves, then drains on SIGTERM)', async () => {
    const held = deferred<FakeReply>();
    let hold = false;
    const tap: FakeReply = { kind: 'call', tool: 'tap', args: { element_id: 'e1' } };
    const fake = await startProviderFake('anthropic', () => (hold ? held.promise : tap));
    fakes.push(fake);
    const created = await runAmc(['control-plane', 'token', 'create', '--name', 'host'], { env: env() });
    const token = created.stdout.trim();
    // Two workers whatever the machine: one holds the decision, the other is idle and must not close before it.
    const { child, match, output } = await startAmc(
      ['control-plane', '--port', '0', '--host', '127.0.0.1', '--workers', '2'],
      /"msg":"listening","url":"(http:\/\/[^"]+)"/,
      { env: { ...env(), ANTHROPIC_API_KEY: fake.apiKey, ANTHROPIC_BASE_URL: fake.baseURL, AMC_CP_MODEL: 'fake-model' } },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = match[1]!;
      const post = () =>
        fetch(`${url}/v1/planner/decision`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(decisionRequest()),
        });
      // At once, so they open connections of their own, which the primary hands to both workers.
      const answeredAtOnce = await Promise.all(Array.from({ length: 4 }, post));
      expect(answeredAtOnce.map((response) => response.status)).toEqual([200, 200, 200, 200]);
      hold = true;
      const inFlight = post();
      for (let i = 0; i < 500 && fake.requests.length === 4; i++) await new Promise((r) => setTimeout(r, 10));
      expect(fake.requests).toHaveLength(5);
      child.kill('SIGTERM');
      // The primary says so once every worker refuses new decisions.
      for (let i = 0; i < 1000 && !output().includes('"msg":"draining","workers":2'); i++) await new Promise((r) => setTimeout(r, 10));
      expect(output()).toContain('"msg":"draining","workers":2');
      // Each refusal closes its connection, so the next one is a new connection the primary hands to either worker.
      const refusals: number[] = [];
      for (let i = 0; i < 6; i++) refusals.push((await post()).status);
      expect(refusals).toEqual(Array(6).fill(503));
      const refusedBy = output()
        .split('\n')
        .filter((line) => line.includes('"msg":"request"') && line.includes('"status":503'))
        .map((line) => (JSON.parse(line) as { worker: number }).worker);
      expect(new Set(refusedBy)).toEqual(new Set([1, 2]));
      expect(output()).not.toContain('"msg":"stopped"');
      held.resolve({ kind: 'call', tool: 'finish_task', args: { success: true, reason: 'done' } });
      const answered = await inFlight;
      expect(answered.status).toBe(200);
      expect(await answered.json()).toMatchObject({ tool_name: 'finish_task', arguments: { success: true, reason: 'done' } });
      expect(await exited).toBe(0);
      const logs = output();
      expect(logs).toContain('"msg":"stopped"');
      expect(logs).not.toContain(token);
      expect(logs).not.toContain(fake.apiKey);
      // Each worker sent its usage to the primary, which wrote it for `usage` to read.
      const usage = await runAmc(['control-plane', 'usage', '--token', 'host', '--json'], { env: env() });
      expect(usage.code, usage.stderr).toBe(0);
      const rows = usage.stdout.trim().split('\n').map((line) => JSON.parse(line) as { period: string; decisions: number });
      expect(rows.find((row) => row.period === 'day')?.decisions).toBe(5);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
