import { LAUNCHER_ACTIVITY, LAUNCHER_PACKAGE } from '../apps/launcher';
import { forcedDensity } from './activity';
import { SCREEN_DENSITY, SCREEN_HEIGHT, SCREEN_WIDTH } from '../properties';
import { output, type CommandHandler, type CommandOutput } from '../shell/interpreter';
import { ADB_IME_ID, LATIN_IME_ID } from '../ui/phone-ui';
import type { PhoneServices } from './context';
import { findPackage, installedPackages } from './packages';
import { runningProcesses } from './processes';
import { batteryDump } from './radios';
import { activityRecord, objectId, taskId, windowRecord } from './records';

/** `dumpsys SERVICE`: the lines of Android 14's service dumps that tools parse. */

const SERVICES = ['activity', 'battery', 'display', 'input', 'input_method', 'package', 'power', 'window'];

export function dumpsysCommand(phone: PhoneServices): CommandHandler {
  return ({ args }) => {
    const [service, ...rest] = args;
    switch (service) {
      case 'window':
        return output(windowDump(phone, rest[0]));
      case 'activity':
        return activityDump(phone, rest[0]);
      case 'power': {
        const on = phone.ui.isScreenOn;
        return output(`POWER MANAGER (dumpsys power)\n  mWakefulness=${on ? 'Awake' : 'Asleep'}\n  mHoldingDisplaySuspendBlocker=${on}\nDisplay Power: state=${on ? 'ON' : 'OFF'}\n`);
      }
      case 'input_method': {
        const shown = phone.ui.isKeyboardShown;
        const enabled = [LATIN_IME_ID, ...(phone.data().adbKeyboardInstalled ? [ADB_IME_ID] : [])];
        return output(
          `  mCurMethodId=${phone.ui.imeId}\n  mInputShown=${shown}\n  mEnabledInputMethods=${enabled.join(':')}\n` +
            `Input method service state:\n  mIsInputViewShown=${shown} mWindowVisible=${shown}\n`,
        );
      }
      case 'input':
        return output(inputDump(phone));
      case 'battery':
        return output(batteryDump());
      case 'display':
        return output(displayDump(phone));
      case 'package':
        return rest[0] === undefined ? output(installedPackages(phone).map((info) => `Package [${info.name}]\n`).join('')) : packageDump(phone, rest[0]);
      case undefined:
      case '-l':
        return output(`Currently running services:\n${SERVICES.map((name) => `  ${name}\n`).join('')}`);
      default:
        return output(`Can't find service: ${service}\n`);
    }
  };
}

function windowDump(phone: PhoneServices, section: string | undefined): string {
  const { ui } = phone;
  const snapshot = ui.snapshot();
  const shadeOnTop = ui.isLocked || ui.isShadeExpanded || !ui.isScreenOn;
  const focus = shadeOnTop ? `Window{${objectId('shade')} u0 NotificationShade}` : windowRecord(snapshot.activity);
  const ime = ui.isKeyboardShown ? `  mInputMethodWindow=Window{${objectId('ime')} u0 InputMethod}\n` : '';
  const forced = forcedDensity(phone);
  const base = forced === undefined ? '' : ` base=${SCREEN_WIDTH}x${SCREEN_HEIGHT} ${forced}dpi`;
  const windows =
    `  mGlobalConfiguration={1.0 ?mcc?mnc [en_US] ldltr sw411dp w411dp h866dp ${forced ?? SCREEN_DENSITY}dpi nrml long port finger -keyb/v/h -nav/h}\n` +
    `  mCurrentFocus=${focus}\n` +
    `  mFocusedApp=${activityRecord(snapshot.activity)}\n` +
    ime +
    `  init=${SCREEN_WIDTH}x${SCREEN_HEIGHT} ${SCREEN_DENSITY}dpi${base} cur=${SCREEN_WIDTH}x${SCREEN_HEIGHT} app=${SCREEN_WIDTH}x2274\n` +
    `  mScreenOn=${ui.isScreenOn}\n`;
  const policy =
    `    mSystemReady=true mSystemBooted=true\n` +
    `    mShowingLockscreen=${ui.isLocked} mShowingDream=false mDreamingLockscreen=false\n` +
    `    mDefaultDisplayPolicy:\n      screenState=${ui.isScreenOn ? 'SCREEN_STATE_ON' : 'SCREEN_STATE_OFF'}\n` +
    `    KeyguardServiceDelegate\n      showing=${ui.isLocked}\n      inputRestricted=${ui.isLocked}\n` +
    `    KeyguardStateMonitor\n      mIsShowing=${ui.isLocked}\n      mSimSecure=false\n      mInputRestricted=${ui.isLocked}\n      mCurrentUserId=0\n`;
  if (section === 'windows') return `WINDOW MANAGER WINDOWS (dumpsys window windows)\n${windows}`;
  if (section === 'policy') return `WINDOW MANAGER POLICY STATE (dumpsys window policy)\n${policy}`;
  if (section !== undefined) return windows;
  return `WINDOW MANAGER POLICY STATE (dumpsys window policy)\n${policy}\nWINDOW MANAGER WINDOWS (dumpsys window windows)\n${windows}`;
}

function activityDump(phone: PhoneServices, section: string | undefined): CommandOutput {
  const snapshot = phone.ui.snapshot();
  const focusedApp = activityRecord(snapshot.activity);
  if (section === 'processes' || section === 'p') {
    const lines = runningProcesses(phone)
      .filter((process) => process.user.startsWith('u0_a') || process.name === 'system_server')
      .map((process) => {
        const uid = process.user.startsWith('u0_a') ? 10000 + Number(process.user.slice(4)) : 1000;
        const name = process.name === 'system_server' ? 'system' : process.name;
        const record = `ProcessRecord{${objectId(`proc${process.pid}`)} ${process.pid}:${name}/${process.user.replace('_', '')}}`;
        return `  *APP* UID ${uid} ${record}\n    user #0 uid=${uid}\n    pid=${process.pid} starting=false\n`;
      });
    return output(`ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)\n  All known processes:\n${lines.join('')}`);
  }
  if (section !== undefined && section !== 'activities' && section !== 'a') return output(`No activities for ${section}\n`);
  return output(
    'ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n' +
      'Display #0 (activities from top to bottom):\n' +
      `  * Task{${objectId('task' + snapshot.foreground)} #${taskId(snapshot.foreground)} type=standard A=10050:${snapshot.foreground} U=0 visible=true mode=fullscreen}\n` +
      `    mResumedActivity: ${focusedApp}\n` +
      `  ResumedActivity: ${focusedApp}\n` +
      `  topResumedActivity=${focusedApp}\n` +
      (snapshot.foreground === LAUNCHER_PACKAGE ? `  mHomeActivity: ${LAUNCHER_PACKAGE}/${LAUNCHER_ACTIVITY}\n` : ''),
  );
}

/** Permissions the person grants at run time ("dangerous"); the others are granted at install. */
const RUNTIME_PERMISSIONS = new Set([
  'android.permission.READ_CONTACTS',
  'android.permission.WRITE_CONTACTS',
  'android.permission.SEND_SMS',
  'android.permission.READ_SMS',
]);
const CONTACTS_PACKAGE = 'com.android.contacts';

/** Whether a runtime permission is granted: Contacts' follow the permission dialog, the rest are pre-granted. */
function runtimeGrant(phone: PhoneServices, pkg: string): { granted: boolean; flags: string } {
  const decision = pkg === CONTACTS_PACKAGE ? phone.data().contactsPermission : 'granted';
  const sensitive = 'USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED';
  return { granted: decision === 'granted', flags: decision === 'ask' ? sensitive : `USER_SET|${sensitive}` };
}

function packageDump(phone: PhoneServices, name: string): CommandOutput {
  const info = findPackage(phone, name);
  if (!info) return output(`Unable to find package: ${name}\n`);
  const runtime = info.permissions.filter((permission) => RUNTIME_PERMISSIONS.has(permission));
  const install = info.permissions.filter((permission) => !RUNTIME_PERMISSIONS.has(permission));
  const { granted, flags } = runtimeGrant(phone, info.name);
  return output(
    'Packages:\n' +
      `  Package [${info.name}] (${objectId(info.name)}):\n` +
      `    userId=${info.uid}\n` +
      `    versionCode=${info.versionCode} minSdk=28 targetSdk=34\n` +
      `    versionName=${info.versionName}\n` +
      `    flags=[ ${info.system ? 'SYSTEM ' : ''}HAS_CODE ALLOW_CLEAR_USER_DATA ]\n` +
      `    requested permissions:\n${info.permissions.map((permission) => `      ${permission}\n`).join('')}` +
      (install.length > 0 ? `    install permissions:\n${install.map((permission) => `      ${permission}: granted=true\n`).join('')}` : '') +
      `    User 0: ceDataInode=4001 installed=true hidden=false suspended=false stopped=false notLaunched=false enabled=0 instant=false virtual=false\n` +
      // Like the package manager, the section is left out when the app has no runtime permission.
      (runtime.length > 0 ? `      runtime permissions:\n${runtime.map((permission) => `        ${permission}: granted=${granted}, flags=[ ${flags} ]\n`).join('')}` : ''),
  );
}

function inputDump(phone: PhoneServices): string {
  return (
    'INPUT MANAGER (dumpsys input)\n\nInput Manager State:\n' +
    `  Interactive: ${phone.ui.isScreenOn}\n` +
    'Input Reader State (Nums of device: 1):\n' +
    '  Device 3: virtio_input_multi_touch\n' +
    '    Sources: TOUCHSCREEN\n' +
    '    Touch Input Mapper (mode - DIRECT):\n' +
    `      Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, orientation=0, logicalFrame=[0, 0, ${SCREEN_WIDTH}, ${SCREEN_HEIGHT}], physicalFrame=[0, 0, ${SCREEN_WIDTH}, ${SCREEN_HEIGHT}], deviceSize=[${SCREEN_WIDTH}, ${SCREEN_HEIGHT}], isActive=[1]\n` +
    `      SurfaceWidth: ${SCREEN_WIDTH}px\n      SurfaceHeight: ${SCREEN_HEIGHT}px\n      SurfaceOrientation: 0\n`
  );
}

function displayDump(phone: PhoneServices): string {
  const state = phone.ui.isScreenOn ? 'ON' : 'OFF';
  return (
    'DISPLAY MANAGER (dumpsys display)\n' +
    'Display Devices: size=1\n' +
    `  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:4619827259835644672", ${SCREEN_WIDTH} x ${SCREEN_HEIGHT}, modeId 1, renderFrameRate 60.0, defaultModeId 1, density ${SCREEN_DENSITY}, ${SCREEN_DENSITY}.0 x ${SCREEN_DENSITY}.0 dpi, touch INTERNAL, rotation 0, type INTERNAL, state ${state}, FLAG_DEFAULT_DISPLAY, FLAG_ROTATES_WITH_CONTENT}\n` +
    `  mScreenState=${state}\n` +
    'Logical Displays: size=1\n  Display 0:\n    mDisplayId=0\n' +
    `    mBaseDisplayInfo=DisplayInfo{"Built-in Screen", displayId 0, displayGroupId 0, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, FLAG_TRUSTED, real ${SCREEN_WIDTH} x ${SCREEN_HEIGHT}, largest app ${SCREEN_WIDTH} x ${SCREEN_HEIGHT}, smallest app ${SCREEN_WIDTH} x ${SCREEN_HEIGHT}, appVsyncOff 1000000, presDeadline 16666666, mode 1, defaultMode 1, rotation 0, state ${state}, type INTERNAL}\n`
  );
}
