import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../../packages/demo-phone/src/phone/phone';
import { LIGHT_THEME } from '../../../packages/demo-phone/src/phone/ui/theme';
import { centerOf, PhoneDriver } from '../../tasks/phone-driver';

async function openNewContactForm(seed: object = {}): Promise<PhoneDriver> {
  const driver = new PhoneDriver(new VirtualPhone({ seed: { contactsPermission: 'granted', ...seed } }));
  await driver.sh('am start -n com.android.contacts/.activities.PeopleActivity');
  await driver.tap({ desc: 'Create contact' });
  await driver.tap({ id: 'editor_name' });
  return driver;
}

describe('phone input', () => {
  it('Scenario: Typing into a focused field shows the text and the keyboard', async () => {
    const driver = await openNewContactForm();
    await driver.sh('input text Dave%sBrown');
    const nodes = await driver.dump();
    expect(nodes.find((node) => node.resourceId.endsWith('editor_name'))).toMatchObject({ text: 'Dave Brown', focused: true });
    const keyboard = nodes.filter((node) => node.pkg === 'com.android.inputmethod.latin');
    expect(keyboard[0]?.bounds).toEqual({ left: 0, top: 1494, right: 1080, bottom: 2274 });
    expect(keyboard.some((node) => node.contentDesc === 'q' && node.clickable)).toBe(true);
    expect(driver.phone.state()).toMatchObject({ keyboardShown: true, focusedField: 'com.android.contacts:id/editor_name' });
    const { data, info } = await sharp(await driver.phone.screenshotPng()).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number): string =>
      '#' + [0, 1, 2].map((c) => (data[(y * info.width + x) * info.channels + c] as number).toString(16).padStart(2, '0')).join('').toUpperCase();
    expect(at(540, 1540)).toBe(LIGHT_THEME.keyboard);
    // Keys can be tapped too, like on a phone.
    const key = nodes.find((node) => node.contentDesc === 'x');
    const { x, y } = centerOf(key!);
    await driver.sh(`input tap ${x} ${y}`);
    await driver.key('KEYCODE_DEL');
    await driver.key('67');
    expect((await driver.get({ id: 'editor_name' })).text).toBe('Dave Brow');
  });

  it('Scenario: Scrolling the Settings list reveals About phone', async () => {
    const driver = new PhoneDriver(new VirtualPhone());
    await driver.tap({ desc: 'Settings' });
    expect(await driver.find({ text: 'About phone' })).toBeUndefined();
    const list = await driver.get({ id: 'recycler_view' });
    expect(list.scrollable).toBe(true);
    await driver.scrollTo({ text: 'About phone' });
    await driver.tap({ text: 'About phone' });
    expect(await driver.textAfter({ text: 'Android version' }, { id: 'summary' })).toBe('14');
    expect(driver.phone.state().activity).toBe('com.android.settings/.SubSettings');
  });

  it('Scenario: A swipe in place of 600 ms is a long press', async () => {
    const driver = new PhoneDriver(new VirtualPhone({ seed: { foreground: 'com.amc.notes' } }));
    const note = await driver.get({ text: 'Ideas' });
    const { x, y } = centerOf(note);
    await driver.sh(`input swipe ${x} ${y} ${x} ${y} 100`);
    expect(driver.phone.state().activity).toBe('com.amc.notes/.EditNoteActivity');
    await driver.key('KEYCODE_BACK');
    await driver.sh(`input swipe ${x} ${y} ${x} ${y} 600`);
    expect(driver.phone.state().dialog).toBe('Delete note?');
    await driver.tap({ text: 'Delete' });
    expect(driver.phone.state().notes.map((n) => n.title)).toEqual(['Shopping list']);
  });

  it('Scenario: BACK closes the keyboard, then the dialog, then the screen', async () => {
    const driver = new PhoneDriver(new VirtualPhone({ seed: { foreground: 'com.amc.notes' } }));
    await driver.tap({ desc: 'New note' });
    await driver.tap({ id: 'note_title' });
    await driver.type('Draft');
    const state = (): ReturnType<VirtualPhone['state']> => driver.phone.state();
    expect(state()).toMatchObject({ keyboardShown: true, dialog: null });
    await driver.key('KEYCODE_BACK');
    expect(state()).toMatchObject({ keyboardShown: false, dialog: null, activity: 'com.amc.notes/.EditNoteActivity' });
    await driver.key('4');
    expect(state()).toMatchObject({ dialog: 'Discard changes?', activity: 'com.amc.notes/.EditNoteActivity' });
    await driver.key('BACK');
    expect(state()).toMatchObject({ dialog: null, activity: 'com.amc.notes/.EditNoteActivity' });
    await driver.key('KEYCODE_BACK');
    await driver.tap({ text: 'Discard' });
    expect(state()).toMatchObject({ dialog: null, activity: 'com.amc.notes/.NotesActivity' });
    expect(state().notes).toHaveLength(2);
    await driver.key('KEYCODE_BACK');
    expect(state().foreground).toBe('com.android.launcher3');
  });

  it('Scenario: Home, Overview and key names work', async () => {
    const driver = new PhoneDriver(new VirtualPhone({ seed: { foreground: 'com.android.deskclock' } }));
    await driver.key('KEYCODE_APP_SWITCH');
    const card = await driver.get({ desc: 'Clock' });
    expect(card.clickable).toBe(true);
    expect(driver.phone.state().foreground).toBe('com.android.launcher3');
    await driver.tap({ desc: 'Clock' });
    expect(driver.phone.state().foreground).toBe('com.android.deskclock');
    await driver.key('3');
    expect(driver.phone.state().foreground).toBe('com.android.launcher3');
    await driver.tap({ desc: 'Overview' });
    await driver.tap({ text: 'Clear all' });
    expect(await driver.find({ text: 'No recent items' })).toBeUndefined();
    expect(await driver.find({ desc: 'Clock' })).toMatchObject({ className: 'android.widget.TextView' });
    const bad = await driver.sh('input keyevent KEYCODE_NOPE', { allowFailure: true });
    expect(bad.exitCode).toBe(255);
    expect(bad.stderr).toContain("Exception occurred while executing 'keyevent'");
    const badTap = await driver.sh('input tap 10', { allowFailure: true });
    expect(badTap.stderr).toContain('Error: Invalid arguments for command: tap');
  });

  it('Scenario: input text rejects non-ASCII like a real phone', async () => {
    const driver = await openNewContactForm();
    const result = await driver.sh('input text 李雷', { allowFailure: true });
    expect(result.exitCode).toBe(255);
    expect(result.stderr).toMatch(/^Exception occurred while executing 'text':\njava\.lang\.NullPointerException/);
    expect((await driver.get({ id: 'editor_name' })).text).toBe('Name');
  });

  it('Scenario: The ADB keyboard types UTF-8 text into the focused field', async () => {
    const driver = await openNewContactForm();
    expect((await driver.sh('ime list -s')).stdout).toBe('com.android.adbkeyboard/.AdbIME\ncom.android.inputmethod.latin/.LatinIME\n');
    expect((await driver.sh('ime set com.android.adbkeyboard/.AdbIME')).stdout).toBe('Input method com.android.adbkeyboard/.AdbIME selected for user #0\n');
    const broadcast = await driver.sh(`am broadcast -a ADB_INPUT_B64 --es msg ${Buffer.from('李雷').toString('base64')}`);
    expect(broadcast.stdout).toBe('Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\nBroadcast completed: result=0\n');
    expect((await driver.get({ id: 'editor_name' })).text).toBe('李雷');
    expect(driver.phone.state().ime.current).toBe('com.android.adbkeyboard/.AdbIME');
    expect(await driver.find({ text: 'ADB Keyboard {ON}' })).toBeDefined();
    await driver.tap({ text: 'Save' });
    expect(driver.phone.state().contacts.map((c) => c.name)).toContain('李雷');
  });

  it('Scenario: Without the ADB keyboard the IME cannot be selected and broadcasts type nothing', async () => {
    const driver = await openNewContactForm({ adbKeyboard: false });
    expect((await driver.sh('ime list -s')).stdout).toBe('com.android.inputmethod.latin/.LatinIME\n');
    expect((await driver.sh('pm list packages adbkeyboard')).stdout).toBe('');
    const set = await driver.sh('ime set com.android.adbkeyboard/.AdbIME', { allowFailure: true });
    expect(set.exitCode).toBe(255);
    expect(set.stderr).toBe('Unknown input method com.android.adbkeyboard/.AdbIME cannot be selected for user #0\n');
    const broadcast = await driver.sh(`am broadcast -a ADB_INPUT_B64 --es msg ${Buffer.from('李雷').toString('base64')}`);
    expect(broadcast.stdout).toContain('Broadcast completed: result=0');
    expect((await driver.get({ id: 'editor_name' })).text).toBe('Name');
  });
});
