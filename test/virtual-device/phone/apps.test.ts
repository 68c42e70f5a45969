import { describe, expect, it } from 'vitest';
import { USER_APP_PACKAGES } from '../../../packages/demo-phone/src/phone/model';
import { VirtualPhone } from '../../../packages/demo-phone/src/phone/phone';
import { PhoneDriver } from '../../tasks/phone-driver';

const APPS = [
  { label: 'Settings', pkg: 'com.android.settings', activity: '.Settings', marker: { text: 'Network & internet' } },
  { label: 'Contacts', pkg: 'com.android.contacts', activity: '.activities.PeopleActivity', marker: { text: 'Alice Johnson' } },
  { label: 'Clock', pkg: 'com.android.deskclock', activity: '.DeskClock', marker: { text: '07:00' } },
  { label: 'Notes', pkg: 'com.amc.notes', activity: '.NotesActivity', marker: { text: 'Shopping list' } },
  { label: 'Messages', pkg: 'com.android.messaging', activity: '.ui.conversationlist.ConversationListActivity', marker: { text: 'Bob Smith' } },
  // Chrome starts from its launcher alias and resumes an activity outside its package, named by its whole class.
  {
    label: 'Chrome',
    pkg: 'com.android.chrome',
    activity: 'org.chromium.chrome.browser.ChromeTabbedActivity',
    launcher: 'com.google.android.apps.chrome.Main',
    marker: { text: 'Bookmarks' },
  },
];

async function expectForeground(driver: PhoneDriver, app: (typeof APPS)[number]): Promise<void> {
  const component = `${app.pkg}/${app.activity}`;
  expect(driver.phone.state()).toMatchObject({ foreground: app.pkg, activity: component });
  const className = app.activity.startsWith('.') ? `${app.pkg}${app.activity}` : app.activity;
  expect((await driver.sh('dumpsys window | grep mCurrentFocus')).stdout).toContain(` u0 ${app.pkg}/${className}}`);
  expect((await driver.sh('dumpsys activity activities | grep mResumedActivity')).stdout).toMatch(
    new RegExp(`mResumedActivity: ActivityRecord\\{\\w+ u0 ${component.replace(/\./g, '\\.')} t\\d+\\}`),
  );
  expect(await driver.find(app.marker)).toBeDefined();
}

describe('phone apps', () => {
  it('Scenario: Every app opens from its launcher icon, am start and monkey', async () => {
    const driver = new PhoneDriver(new VirtualPhone({ seed: { contactsPermission: 'granted' } }));
    const packages = (await driver.sh('pm list packages')).stdout.trim().split('\n');
    for (const app of APPS) {
      expect(packages).toContain(`package:${app.pkg}`);
      await driver.key('KEYCODE_HOME');
      await driver.tap({ desc: app.label, pkg: 'com.android.launcher3' });
      await expectForeground(driver, app);
      await driver.sh(`am force-stop ${app.pkg}`);
      expect(driver.phone.state().foreground).toBe('com.android.launcher3');
      const launcher = 'launcher' in app ? app.launcher : app.activity;
      expect((await driver.sh(`am start -n ${app.pkg}/${launcher}`)).stdout).toBe(`Starting: Intent { cmp=${app.pkg}/${launcher} }\n`);
      await expectForeground(driver, app);
      await driver.key('KEYCODE_HOME');
      const monkey = await driver.sh(`monkey -p ${app.pkg} -c android.intent.category.LAUNCHER 1`);
      expect(monkey.stdout).toContain('Events injected: 1');
      await expectForeground(driver, app);
    }
    const missing = await driver.sh('monkey -p com.example.none -c android.intent.category.LAUNCHER 1', { allowFailure: true });
    expect(missing.stderr).toBe('** No activities found to run, monkey aborted.\n');
  });

  it('Scenario: A seed opens any launcher app, the browser included', async () => {
    expect(USER_APP_PACKAGES).toEqual(APPS.map((app) => app.pkg));
    for (const app of APPS) {
      const driver = new PhoneDriver(new VirtualPhone({ seed: { foreground: app.pkg, contactsPermission: 'granted' } }));
      await expectForeground(driver, app);
    }
    expect(() => new VirtualPhone({ seed: { foreground: 'com.android.launcher3' } })).toThrow(/foreground/);
  });

  it('Scenario: am start with an unknown activity fails with the real error', async () => {
    const driver = new PhoneDriver(new VirtualPhone());
    const result = await driver.sh('am start -n com.android.settings/.Nope', { allowFailure: true });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('Error: Activity class {com.android.settings/com.android.settings.Nope} does not exist.');
    expect(driver.phone.state().foreground).toBe('com.android.launcher3');
  });

  it('Scenario: settings get and put follow the switches', async () => {
    const driver = new PhoneDriver(new VirtualPhone());
    await driver.sh('settings put global wifi_on 0');
    await driver.sh('settings put secure ui_night_mode 2');
    expect(driver.phone.state().settings).toMatchObject({ wifi: false, darkTheme: true });
    expect((await driver.sh('settings get global bluetooth_on')).stdout).toBe('0\n');
    await driver.sh('am start -n com.android.settings/.Settings');
    await driver.tap({ text: 'Connected devices' });
    const row = await driver.get({ text: 'Bluetooth' });
    expect((await driver.dump()).find((node) => node.className === 'android.widget.Switch')).toMatchObject({ checkable: true, checked: false });
    await driver.tap({ text: row.text });
    expect((await driver.sh('settings get global bluetooth_on')).stdout).toBe('1\n');
    expect((await driver.dump()).find((node) => node.className === 'android.widget.Switch')?.checked).toBe(true);
    expect((await driver.sh('settings get system screen_off_timeout')).stdout).toBe('30000\n');
    expect((await driver.sh('settings get global no_such_key')).stdout).toBe('null\n');
    await driver.sh('settings put system my_key 7');
    expect((await driver.sh('settings get system my_key')).stdout).toBe('7\n');
    expect((await driver.sh('settings get nowhere key', { allowFailure: true })).stderr).toBe("Invalid namespace 'nowhere'\n");
    await driver.sh('settings put secure default_input_method com.android.adbkeyboard/.AdbIME');
    expect(driver.phone.state().ime.current).toBe('com.android.adbkeyboard/.AdbIME');
    expect((await driver.sh('settings get secure default_input_method')).stdout).toBe('com.android.adbkeyboard/.AdbIME\n');
  });

  it('Scenario: Contacts asks for permission before showing the list', async () => {
    const driver = new PhoneDriver(new VirtualPhone());
    await driver.tap({ desc: 'Contacts' });
    const message = await driver.get({ id: 'permission_message' });
    expect(message).toMatchObject({ text: 'Allow Contacts to access your contacts?', pkg: 'com.android.permissioncontroller' });
    expect(await driver.find({ text: 'Alice Johnson' })).toBeUndefined();
    expect(driver.phone.state()).toMatchObject({ dialog: 'Allow Contacts to access your contacts?', contactsPermission: 'ask' });
    await driver.tap({ text: 'Allow' });
    expect(driver.phone.state()).toMatchObject({ dialog: null, contactsPermission: 'granted' });
    expect(await driver.find({ text: 'Alice Johnson' })).toBeDefined();
  });

  it('refusing the permission leaves an Allow access button that asks again', async () => {
    const driver = new PhoneDriver(new VirtualPhone());
    await driver.sh('monkey -p com.android.contacts 1');
    await driver.key('KEYCODE_BACK');
    expect(driver.phone.state()).toMatchObject({ contactsPermission: 'denied', dialog: null, foreground: 'com.android.contacts' });
    await driver.tap({ text: 'Allow access' });
    await driver.tap({ text: "Don't allow" });
    expect(driver.phone.state().contactsPermission).toBe('denied');
    await driver.tap({ text: 'Allow access' });
    await driver.tap({ text: 'Allow' });
    expect(await driver.find({ text: 'Bob Smith' })).toBeDefined();
  });

  it('reports screen, power and keyboard state through dumpsys', async () => {
    const driver = new PhoneDriver(new VirtualPhone({ seed: { foreground: 'com.amc.notes' } }));
    expect((await driver.sh('dumpsys power | grep mWakefulness')).stdout).toBe('  mWakefulness=Awake\n');
    expect((await driver.sh('dumpsys input_method | grep mInputShown')).stdout).toBe('  mInputShown=false\n');
    await driver.tap({ desc: 'New note' });
    await driver.tap({ id: 'note_body' });
    expect((await driver.sh('dumpsys input_method | grep mInputShown')).stdout).toBe('  mInputShown=true\n');
    expect((await driver.sh('dumpsys nosuch')).stdout).toBe("Can't find service: nosuch\n");
  });
});
