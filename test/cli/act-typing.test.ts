// `amc act type_text` types what `input text` cannot through yadb (from Settings' YADB_PATH, pushed by the command),
// as the app and `amc run` do, on a phone without ADBKeyBoard; without yadb it fails with the plain reason.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { runAmc } from '../support/cli';
import { focusNewContactName, saveContact } from '../virtual-device/scrcpy/contact-editor';
import { helperStandIn } from '../support/helper-stand-in';

const HOSTILE = `李雷 😀 $\\\`'"`;

let harness: AdbHarness;
let yadb: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  yadb = path.join(harness.tmpDir, 'yadb-v1.1.1');
  // Any bytes do: the demo phone checks the jar is there, not what it holds.
  writeFileSync(yadb, helperStandIn('yadb'));
}, 60_000);

afterAll(async () => {
  await harness?.stop();
});

/** A phone without ADBKeyBoard with the contact editor's Name field focused. */
async function focusNameField(): Promise<void> {
  await harness.reset({ contactsPermission: 'granted', adbKeyboard: false });
  await focusNewContactName(harness);
}

describe('amc act typing', { timeout: 60_000 }, () => {
  it('Scenario: amc act types any text through yadb without a keyboard app', async () => {
    await focusNameField();
    const imeBefore = (await harness.state()).ime.current;
    const result = await runAmc(['act', '-s', harness.serial, 'type_text', '--text', HOSTILE], {
      env: { ...harness.env, YADB_PATH: yadb, AMC_HELPER_DOWNLOAD: 'off', AMC_PHONE_HELPERS_DIR: '' },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    await saveContact(harness);
    const state = await harness.state();
    expect(state.contacts.map((contact) => contact.name)).toContain(HOSTILE);
    expect(state.ime).toEqual({ current: imeBefore, adbKeyboardInstalled: false });
  });

  it('Scenario: amc act without yadb or ADBKeyBoard fails clearly and types nothing', async () => {
    await focusNameField();
    const result = await runAmc(['act', '-s', harness.serial, 'type_text', '--text', '李雷'], { env: { ...harness.env, AMC_HELPER_DOWNLOAD: 'off', AMC_PHONE_HELPERS_DIR: '' } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/ADBKeyBoard/);
    expect(result.stderr).toMatch(/yadb/);
    await saveContact(harness);
    expect((await harness.state()).contacts.map((contact) => contact.name)).not.toContain('李雷');
  });
});
