import type { AdbClient } from '../adb-client';
import { HELPERS, type HelperName } from './catalog';
import type { HelperProvider } from './helper-provider';
import { sha256 } from './provision';

export type HelperOnPhone = { ready: true; devicePath: string } | { ready: false; reason: string };

/**
 * Puts provisioned helper files on phones: pushed once per phone and file (the same bytes are not pushed again
 * while this process runs), so typing a word does not cost a push each time.
 */
export class PhoneHelpers {
  private readonly pushed = new Map<string, string>();

  constructor(
    private readonly adb: () => Promise<Pick<AdbClient, 'push'>>,
    private readonly provider: Pick<HelperProvider, 'get'>,
  ) {}

  async ensure(serial: string, name: HelperName, signal?: AbortSignal): Promise<HelperOnPhone> {
    const helper = HELPERS[name];
    const resolution = await this.provider.get(name);
    if (!resolution.available) return { ready: false, reason: resolution.reason };
    const key = `${serial}\n${name}`;
    const digest = sha256(resolution.bytes);
    if (this.pushed.get(key) !== digest) {
      try {
        await (await this.adb()).push(serial, resolution.bytes, helper.devicePath, { signal, timeoutMs: 15_000 });
      } catch (error) {
        return { ready: false, reason: `${name} could not be copied to the phone (${error instanceof Error ? error.message : String(error)})` };
      }
      this.pushed.set(key, digest);
    }
    return { ready: true, devicePath: helper.devicePath };
  }

  /** The phone was disconnected or reset: push again next time. */
  forget(serial: string): void {
    for (const key of this.pushed.keys()) if (key.startsWith(`${serial}\n`)) this.pushed.delete(key);
  }
}
