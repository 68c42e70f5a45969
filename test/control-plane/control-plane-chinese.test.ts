// The control plane's refusals in a Chinese terminal (LANG=zh_CN.UTF-8), as a person meets them: a config file that
// cannot be read, holds a key or has wrong fields, an environment variable or option out of range, a secrets file
// that is not JSON or has wrong fields, a tokens file that is not JSON or not a token store, a token name two tokens
// share or none has, a usage file that is not JSON or not a usage file. Each is worded from its code; the system's own
// text may follow, quoted. Any English sentence left (not a name, path, number or code) fails.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAmc } from '../support/cli';
import { latinSentences } from '../support/latin-sentences';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'amc-cp-chinese-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const inDir = (name: string) => path.join(dir, name);
const fileWith = async (name: string, text: string) => {
  await writeFile(inDir(name), text, { mode: 0o600 });
  return inDir(name);
};
/** A terminal in Chinese (or English) with nothing from the machine: no keys, no config, this test's folder. */
const env = (lang: string, extra: Record<string, string> = {}) => ({
  LANG: lang,
  LC_ALL: '',
  LC_MESSAGES: '',
  AMC_HOME: dir,
  HOME: dir,
  AMC_CP_CONFIG: '',
  AMC_CP_SECRETS_FILE: '',
  AMC_CP_TOKENS_FILE: '',
  ANTHROPIC_API_KEY: '',
  OPENAI_API_KEY: '',
  ...extra,
});
const NAMES = ['Redis'];
/** The refusal's own line (the usage lines after it are checked by the help sweep). */
const refusalLine = (stderr: string) => stderr.split('\n')[0]!;

describe('the control plane in a Chinese terminal', { timeout: 120_000 }, () => {
  it("Scenario: The control plane's configuration and token store refusals are worded in a Chinese terminal", async () => {
    const tokensNotJson = await fileWith('broken-tokens.json', '[1, 2');
    const tokensWrongShape = await fileWith('odd-tokens.json', JSON.stringify({ version: 1, tokens: [{ id: 'XYZ', name: 'laptop' }] }));
    const twoLaptops = {
      version: 1,
      tokens: ['0123456789abcdef', 'fedcba9876543210'].map((id) => ({ id, name: 'laptop', hash: `sha256:${'a'.repeat(64)}`, createdAt: '2026-01-01T00:00:00Z', revokedAt: null })),
    };
    const sharedName = await fileWith('shared-name.json', JSON.stringify(twoLaptops));
    const usageFolder = await mkdtemp(path.join(dir, 'usage-'));
    const usageTokens = path.join(usageFolder, 'tokens.json');
    await writeFile(usageTokens, JSON.stringify({ version: 1, tokens: [] }));
    await writeFile(path.join(usageFolder, 'usage.json'), '{"rows": [');
    const usageWrongFolder = await mkdtemp(path.join(dir, 'usage-wrong-'));
    await writeFile(path.join(usageWrongFolder, 'tokens.json'), JSON.stringify({ version: 1, tokens: [] }));
    await writeFile(path.join(usageWrongFolder, 'usage.json'), JSON.stringify({ rows: 'many' }));
    const configWithKey = await fileWith('with-key.json', JSON.stringify({ anthropicApiKey: 'sk-not-here' }));
    const configWrong = await fileWith('wrong.json', JSON.stringify({ port: 'eighty', colour: 'blue' }));
    const secretsNotJson = await fileWith('secrets-broken.json', '{ nope');
    const secretsWrong = await fileWith('secrets-wrong.json', JSON.stringify({ anthropicApiKey: 42 }));

    const cases: Array<[string[], Record<string, string>, RegExp, string]> = [
      [['control-plane', 'token', 'list', '--tokens', tokensNotJson], {}, /令牌文件 \S+broken-tokens\.json 不是有效的 JSON。解析器的原话：“/, 'is not valid JSON: '],
      [['control-plane', 'token', 'list', '--tokens', tokensWrongShape], {}, /令牌文件 \S+odd-tokens\.json 不是有效的令牌存储：tokens\.0\.id：.+；tokens\.0\.hash：/, 'is not a valid token store: tokens.0.id: Invalid string: must match pattern /^[0-9a-f]{16}$/; tokens.0.hash: Invalid input: expected string, received undefined'],
      [['control-plane', 'token', 'revoke', 'laptop', '--tokens', sharedName], {}, /中有 2 个令牌都叫“laptop”；请用 ID/, 'tokens are named "laptop" in'],
      [['control-plane', 'token', 'revoke', 'desktop', '--tokens', sharedName], {}, /中没有 ID 或名字为“desktop”的令牌/, 'no token with id or name "desktop"'],
      [['control-plane', 'usage', '--tokens', usageTokens], {}, /用量文件 \S+usage\.json 不是有效的 JSON；把它移走，就会从零开始计数/, 'is not valid JSON; move it away to start counting afresh'],
      [['control-plane', 'usage', '--tokens', path.join(usageWrongFolder, 'tokens.json')], {}, /用量文件 \S+usage\.json 不是有效的用量文件/, 'is not a valid usage file'],
      [['control-plane', '--port', '0', '--config', inDir('missing.json')], {}, /无法读取设置文件 \S+missing\.json。系统的原话：“ENOENT/, 'cannot read config file'],
      [['control-plane', '--port', '0', '--config', configWithKey], {}, /设置文件 \S+with-key\.json 里有模型服务商的密钥/, 'contains a provider key'],
      [['control-plane', '--port', '0', '--config', configWrong], {}, /设置文件 \S+wrong\.json 有误：/, 'is invalid: '],
      [['control-plane', '--port', '0'], { AMC_CP_UPSTREAM_TIMEOUT_SECONDS: 'soon' }, /环境变量有误：AMC_CP_UPSTREAM_TIMEOUT_SECONDS="soon"：/, 'invalid environment: AMC_CP_UPSTREAM_TIMEOUT_SECONDS="soon"'],
      [['control-plane', '--port', '0', '--metrics-token', 'abc'], {}, /选项有误：--metrics-token：至少要有/, 'invalid option: --metrics-token'],
      [['control-plane', '--port', '0', '--secrets', secretsNotJson], {}, /无法读取密钥文件 \S+secrets-broken\.json：它不是有效的 JSON/, 'it is not valid JSON'],
      [['control-plane', '--port', '0', '--secrets', secretsWrong], {}, /密钥文件 \S+secrets-wrong\.json 有误（字段：anthropicApiKey）/, 'is invalid (fields: anthropicApiKey)'],
    ];
    for (const [args, extra, chinese, english] of cases) {
      const where = `amc ${args.join(' ')}`;
      const zh = await runAmc(args, { env: env('zh_CN.UTF-8', extra) });
      expect(zh.code, `${where}: ${zh.stderr}`).toBe(2);
      const line = refusalLine(zh.stderr);
      expect(line, where).toMatch(chinese);
      expect(latinSentences(line, NAMES), `${where}:\n${line}`).toEqual([]);
      // An English terminal keeps the words it always printed.
      const en = await runAmc(args, { env: env('en_US.UTF-8', extra) });
      expect(en.code, `${where}: ${en.stderr}`).toBe(2);
      expect(refusalLine(en.stderr), where).toContain(english);
    }
  });
});
