import { describe, expect, it } from 'vitest';
import { interrupt, runAmc, startAmc } from '../support/cli';
import { startVirtualDevice } from '@amc/demo-phone';

describe('amc virtual-device', () => {
  it('Scenario: amc virtual-device prints both addresses on one line and stops cleanly on Ctrl-C', async () => {
    const { child, match, output } = await startAmc(
      ['virtual-device', '--port', '0', '--control-port', '0', '--profile', 'realistic'],
      /adb connect (127\.0\.0\.1:\d+) \| control API (http:\/\/127\.0\.0\.1:\d+)/,
    );
    try {
      const readyLines = output().split('\n').filter((line) => line.includes('adb connect'));
      expect(readyLines).toHaveLength(1);
      const state = await fetch(`${match[2]}/state`);
      expect(state.status).toBe(200);
      expect(((await state.json()) as { profile: string }).profile).toBe('realistic');
    } finally {
      expect(await interrupt(child)).toBe(0);
    }
  });

  it('Scenario: A port that is taken fails with a clear message', async () => {
    const occupying = await startVirtualDevice();
    try {
      const result = await runAmc(['virtual-device', '--port', String(occupying.adbPort), '--control-port', '0']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`cannot listen on port ${occupying.adbPort}`);
    } finally {
      await occupying.close();
    }
  });

  it('rejects a bad profile or port as a usage error', async () => {
    const badProfile = await runAmc(['virtual-device', '--profile', 'slow']);
    expect(badProfile.code).toBe(2);
    expect(badProfile.stderr).toContain('--profile must be one of instant, realistic, got "slow"');
    const badPort = await runAmc(['virtual-device', '--port', '99999']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port must be a whole number from 0 to 65535');
  });
});
