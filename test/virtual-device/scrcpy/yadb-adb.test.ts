import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { focusNewContactName, saveContact } from './contact-editor';
import { helperStandIn } from '../../support/helper-stand-in';

const YADB = '/data/local/tmp/yadb';
const HOSTILE = `李雷 😀 $\\\`'"`;

/** Single quotes for the phone's sh, as a client must quote text for `adb shell`. */
const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
const yadbKeyboard = (text: string): string => `app_process -Djava.class.path=${YADB} /data/local/tmp com.ysbing.yadb.Main -keyboard ${shellQuote(text)}`;

describe('demo phone runs yadb pushed by a client', () => {
  let harness: AdbHarness;

  beforeAll(async () => {
    harness = await startAdbHarness();
  }, 60_000);

  afterAll(async () => {
    await harness?.stop();
  });

  /** A fresh phone (seeded) with the contact editor's Name field focused and yadb pushed. */
  async function focusNameField(seed: object): Promise<void> {
    await harness.reset({ contactsPermission: 'granted', ...seed });
    const local = path.join(harness.tmpDir, 'yadb');
    // Any bytes do: the demo phone checks the jar is there, not what it holds.
    writeFileSync(local, helperStandIn('yadb'));
    expect((await harness.adb(['-s', harness.serial, 'push', local, YADB])).code).toBe(0);
    await focusNewContactName(harness);
  }

  /** Taps Save in the editor; the contact list in GET /state then holds what the field held. */
  const save = (): Promise<void> => saveContact(harness);

  it('Scenario: yadb types 李雷, emoji and shell-hostile ASCII into the focused field', async () => {
    await focusNameField({});
    const typed = await harness.shell(yadbKeyboard(HOSTILE));
    expect(typed.code).toBe(0);
    await save();
    expect((await harness.state()).contacts.map((contact) => contact.name)).toContain(HOSTILE);
  });

  it('Scenario: A phone seeded without yadb refuses it and ADBKeyBoard still types', async () => {
    await focusNameField({ yadb: false, adbKeyboard: true });
    const refused = await harness.shell(yadbKeyboard(HOSTILE));
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('SecurityException');
    await harness.shell('ime set com.android.adbkeyboard/.AdbIME');
    await harness.shell(`am broadcast -a ADB_INPUT_B64 --es msg ${Buffer.from(HOSTILE).toString('base64')}`);
    await save();
    expect((await harness.state()).contacts.map((contact) => contact.name)).toContain(HOSTILE);
  });

  it('Scenario: A phone without yadb and ADBKeyBoard types nothing', async () => {
    await focusNameField({ yadb: false, adbKeyboard: false });
    expect((await harness.shell(yadbKeyboard(HOSTILE))).code).not.toBe(0);
    expect((await harness.shell('ime set com.android.adbkeyboard/.AdbIME')).code).not.toBe(0);
    await save();
    const state = await harness.state();
    expect(state.contacts.map((contact) => contact.name)).not.toContain(HOSTILE);
    // Nothing was typed, so Save stayed disabled and the editor is still open.
    expect(state.focusedField).toBe('com.android.contacts:id/editor_name');
  });

  it('Scenario: yadb without its pushed jar is not found', async () => {
    await harness.reset();
    const missing = await harness.shell(yadbKeyboard('hello'));
    expect(missing.code).not.toBe(0);
    expect(missing.stdout + missing.stderr).toContain('ClassNotFoundException');
  });
});
