// `amc` in the terminal's language: Chinese help and usage errors with LANG=zh_CN.UTF-8, English again when
// AMC_LANGUAGE says so; the exit codes and `--json` keys do not change with the language.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAmc } from '../support/cli';

/** A port nothing listens on (taken from the system, then let go). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A terminal in Chinese: LANG set, and no LC_ALL / LC_MESSAGES from the machine to win over it. */
const CHINESE = { LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' };

describe('amc in the terminal language', { timeout: 120_000 }, () => {
  it('Scenario: The CLI speaks Chinese when LANG or AMC_LANGUAGE asks for it', async () => {
    const help = await runAmc(['--help'], { env: CHINESE });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('用法：amc <命令> [选项]');
    expect(help.stdout).toMatch(/\n\s+doctor\s+检查任务能否运行/);
    expect(help.stdout).toContain('-v, --version  显示版本号');

    const badOption = await runAmc(['serve', '--prot', '8080'], { env: CHINESE });
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain('amc serve: 没有 --prot 这个选项（是不是想用 --port？）');
    expect(badOption.stderr).toContain('用法：amc serve');
    const badPort = await runAmc(['serve', '--port', 'seventy'], { env: CHINESE });
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port 必须是 0 到 65535 之间的整数，收到的是 "seventy"');
    const unknown = await runAmc(['frobnicate'], { env: CHINESE });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('amc：没有 "frobnicate" 这个命令');

    // AMC_LANGUAGE (the Language setting's variable) wins over LANG.
    const english = { ...CHINESE, AMC_LANGUAGE: 'en' };
    const englishHelp = await runAmc(['--help'], { env: english });
    expect(englishHelp.stdout).toContain('Usage: amc <command> [options]');
    expect(englishHelp.stdout).toMatch(/\n\s+doctor\s+check that a task can run/);
    const englishBad = await runAmc(['serve', '--prot', '8080'], { env: english });
    expect(englishBad.code).toBe(2);
    expect(englishBad.stderr).toContain('amc serve: unknown option --prot (did you mean --port?)');
  });

  it('Scenario: amc doctor explains in the terminal language, and its --json stays in English', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'amc-language-home-'));
    try {
      // No adb at that path and no server on that port: nothing is started, two checks fail.
      const env = { ...CHINESE, HOME: home, AMC_HOME: home, ANDROID_ADB_SERVER_PORT: String(await freePort()) };
      const doctor = await runAmc(['doctor', '--adb-path', '/nonexistent/adb'], { env });
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toMatch(/^失败 {2}adb\s+找不到 \/nonexistent\/adb$/m);
      expect(doctor.stdout).toMatch(/^正常 {2}设置\s+有效$/m);
      expect(doctor.stdout).toMatch(/^失败 {2}adb 服务器\s/m);
      expect(doctor.stdout).toContain('任务还不能运行：adb, adb 服务器。');
      const json = await runAmc(['doctor', '--json', '--adb-path', '/nonexistent/adb'], { env });
      expect(json.code).toBe(1);
      const report = JSON.parse(json.stdout) as { canRun: boolean; checks: Array<{ check: string; status: string; detail: string }> };
      expect(report.canRun).toBe(false);
      expect(report.checks.find((row) => row.check === 'adb')).toMatchObject({ status: 'fail', detail: '/nonexistent/adb was not found' });
      expect(report.checks.find((row) => row.check === 'settings')).toMatchObject({ status: 'ok', detail: 'valid' });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
