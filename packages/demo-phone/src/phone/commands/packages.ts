import { APP_PACKAGES } from '../model';
import { USER_APPS } from '../apps/index';
import { LAUNCHER_ACTIVITY, LAUNCHER_PACKAGE } from '../apps/launcher';
import { PERMISSION_CONTROLLER_PACKAGE } from '../apps/contacts';
import { failure, output, type CommandHandler, type CommandOutput } from '../shell/interpreter';
import { LATIN_IME_ID } from '../ui/phone-ui';
import { ADB_KEYBOARD_PACKAGE, LATIN_IME_PACKAGE, SYSTEM_UI_PACKAGE } from '../ui/system-ui';
import type { PhoneServices } from './context';
import { listFeatures } from './radios';
import { fullClassName } from './records';

/** What the package manager knows of each installed package, and `pm` / `cmd package` over it. */

export interface PackageInfo {
  name: string;
  system: boolean;
  uid: number;
  versionCode: number;
  versionName: string;
  /** The launcher activity (short form), for apps that have one. */
  launcherActivity?: string;
  permissions: string[];
}

const SYSTEM_PACKAGES: PackageInfo[] = [
  { name: 'android', system: true, uid: 1000, versionCode: 34, versionName: '14', permissions: [] },
  { name: 'com.android.shell', system: true, uid: 2000, versionCode: 34, versionName: '14', permissions: ['android.permission.INTERNET'] },
  { name: SYSTEM_UI_PACKAGE, system: true, uid: 10141, versionCode: 34, versionName: '14', permissions: ['android.permission.STATUS_BAR'] },
  { name: LAUNCHER_PACKAGE, system: true, uid: 10120, versionCode: 34, versionName: '14', launcherActivity: LAUNCHER_ACTIVITY, permissions: [] },
  { name: PERMISSION_CONTROLLER_PACKAGE, system: true, uid: 10130, versionCode: 340818000, versionName: '34 system image', permissions: [] },
  { name: LATIN_IME_PACKAGE, system: true, uid: 10125, versionCode: 34, versionName: '14', permissions: ['android.permission.VIBRATE'] },
];

const THIRD_PARTY = new Set(['com.amc.notes', ADB_KEYBOARD_PACKAGE]);
const APP_PERMISSIONS: Record<string, string[]> = {
  'com.android.contacts': ['android.permission.READ_CONTACTS', 'android.permission.WRITE_CONTACTS'],
  'com.android.messaging': ['android.permission.SEND_SMS', 'android.permission.READ_SMS', 'android.permission.READ_CONTACTS'],
  'com.android.deskclock': ['android.permission.SCHEDULE_EXACT_ALARM', 'android.permission.WAKE_LOCK'],
  'com.android.chrome': ['android.permission.INTERNET', 'android.permission.ACCESS_NETWORK_STATE'],
};

export function installedPackages(phone: PhoneServices): PackageInfo[] {
  const apps: PackageInfo[] = USER_APPS.map((app, index) => ({
    name: app.pkg,
    system: !THIRD_PARTY.has(app.pkg),
    uid: 10150 + index,
    versionCode: THIRD_PARTY.has(app.pkg) ? 3 : 34,
    versionName: THIRD_PARTY.has(app.pkg) ? '1.2' : '14',
    launcherActivity: app.mainActivity,
    permissions: APP_PERMISSIONS[app.pkg] ?? [],
  }));
  const keyboard: PackageInfo[] = phone.data().adbKeyboardInstalled
    ? [{ name: ADB_KEYBOARD_PACKAGE, system: false, uid: 10170, versionCode: 4, versionName: '2.4-dev', permissions: [] }]
    : [];
  return [...SYSTEM_PACKAGES, ...apps, ...keyboard].sort((a, b) => a.name.localeCompare(b.name));
}

export function findPackage(phone: PhoneServices, name: string): PackageInfo | undefined {
  return installedPackages(phone).find((info) => info.name === name);
}

export function apkPath(info: PackageInfo): string {
  if (!info.system) return `/data/app/~~${Buffer.from(info.name).toString('base64url').slice(0, 22)}==/${info.name}-1/base.apk`;
  if (info.name === 'android') return '/system/framework/framework-res.apk';
  return `/system/priv-app/${info.name.split('.').pop()}/${info.name.split('.').pop()}.apk`;
}


const PM_USAGE = `Package manager (package) commands:
  help
      Print this help text.

  path [--user USER_ID] PACKAGE
      Print the path to the .apk of the given PACKAGE.

  list packages [-f] [-d] [-e] [-s] [-3] [-i] [-l] [-u] [-U] [--show-versioncode]
      [--apex-only] [--uid UID] [--user USER_ID] [FILTER]
      Prints all packages; optionally only those whose name contains
      the text in FILTER.

  resolve-activity [--brief] [--components] [--query-flags FLAGS]
       [--user USER_ID] INTENT
      Prints the activity that resolves to the given INTENT.
`;

/** `pm ...` and `cmd package ...` (the same PackageManagerShellCommand on Android 14). */
export function packageCommand(phone: PhoneServices): CommandHandler {
  return ({ args }) => {
    const [subcommand, ...rest] = args;
    switch (subcommand) {
      case 'list':
        if (rest[0] === 'packages' || rest[0] === 'package') return listPackages(phone, rest.slice(1));
        if (rest[0] === 'features') return listFeatures();
        return failure(`Error: unknown list type '${rest[0] ?? ''}'\n`, 255);
      case 'path': {
        const name = rest.filter((arg, index) => !arg.startsWith('-') && rest[index - 1] !== '--user')[0];
        const info = name === undefined ? undefined : findPackage(phone, name);
        return info ? output(`package:${apkPath(info)}\n`) : output('', '', 1);
      }
      case 'resolve-activity':
        return resolveActivity(phone, rest);
      case 'install':
        return install(phone, rest);
      case 'uninstall':
        return uninstall(phone, rest);
      case 'clear':
        return clearData(phone, rest);
      case undefined:
      case 'help':
        return output(PM_USAGE);
      default:
        return failure(`Unknown command: ${subcommand}\n`, 255);
    }
  };
}

function listPackages(phone: PhoneServices, args: string[]): CommandOutput {
  const flags = new Set<string>();
  let filter: string | undefined;
  let uid: number | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--user') index++;
    else if (arg === '--uid') uid = Number(args[++index]);
    else if (arg.startsWith('--')) flags.add(arg);
    else if (arg.startsWith('-')) for (const flag of arg.slice(1)) flags.add(`-${flag}`);
    else filter = arg;
  }
  const unknown = [...flags].find((flag) => !['-f', '-d', '-e', '-s', '-3', '-i', '-l', '-u', '-U', '-a', '--show-versioncode', '--apex-only'].includes(flag));
  if (unknown) return failure(`Error: Unknown option: ${unknown}\n`, 255);
  const lines = installedPackages(phone)
    .filter((info) => filter === undefined || info.name.includes(filter))
    .filter((info) => uid === undefined || info.uid === uid)
    .filter(() => !flags.has('-d') && !flags.has('--apex-only'))
    .filter((info) => (!flags.has('-s') || info.system) && (!flags.has('-3') || !info.system))
    .map((info) => {
      let line = 'package:';
      if (flags.has('-f')) line += `${apkPath(info)}=`;
      line += info.name;
      if (flags.has('--show-versioncode')) line += ` versionCode:${info.versionCode}`;
      if (flags.has('-i')) line += `  installer=${info.system ? 'null' : 'com.android.shell'}`;
      if (flags.has('-U')) line += ` uid:${info.uid}`;
      return `${line}\n`;
    });
  return output(lines.join(''));
}

/** `resolve-activity [--brief] PKG` or an intent with `-n`/`-a`/`-c`/`-p`: the launcher activity of the package. */
function resolveActivity(phone: PhoneServices, args: string[]): CommandOutput {
  let brief = false;
  let pkg: string | undefined;
  let action: string | undefined;
  let data: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--brief') brief = true;
    else if (arg === '--components') continue;
    else if (arg === '-a') action = args[++index];
    else if (arg === '-d') data = args[++index];
    else if (['--user', '--query-flags', '-c', '-t'].includes(arg)) index++;
    else if (arg === '-n') pkg = args[++index]?.split('/')[0];
    else if (arg === '-p') pkg = args[++index];
    else if (!arg.startsWith('-')) pkg = arg;
  }
  // A web address is viewed by the browser, as on a phone whose default browser is set.
  if (pkg === undefined && action === 'android.intent.action.VIEW' && data !== undefined && /^https?:/i.test(data)) pkg = APP_PACKAGES.browser;
  const info = pkg === undefined ? undefined : findPackage(phone, pkg);
  if (!info?.launcherActivity) return output('No activity found\n');
  const component = `${info.name}/${info.launcherActivity}`;
  const head = 'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n';
  if (brief) return output(`${head}${component}\n`);
  const className = fullClassName(info.name, info.launcherActivity);
  return output(
    `Activity #0:\n  ${head.trimEnd()}\n  ActivityInfo:\n    name=${className}\n    packageName=${info.name}\n    enabled=true exported=true directBootAware=false\n`,
  );
}

/** Where the package manager stages an install session's APK (the session number is made up). */
const STAGED_APK = '/data/app/vmdl1730450123.tmp/base.apk';

/**
 * `pm install PATH` (what `adb install` runs after pushing the file, on a phone without the `cmd` feature). A file
 * that is not a ZIP archive is refused as not an APK; one that is cannot be verified here (it carries no signature
 * this phone could check) and is refused for that.
 */
function install(phone: PhoneServices, args: string[]): CommandOutput {
  const path = args.filter((arg, index) => !arg.startsWith('-') && !['--user', '-i', '--install-location'].includes(args[index - 1] ?? ''))[0];
  if (path === undefined) return failure('Error: must either specify a package size or an APK file\n', 1);
  const entry = phone.fs.stat(path);
  if (!entry || entry.isDirectory) return failure(`Error: Unable to open file: ${path}\nConsider using a file under /data/local/tmp/\n`, 1);
  const isZip = phone.fs.read(path).subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  if (!isZip) return failure(`Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse ${STAGED_APK}: Failed to load asset path ${STAGED_APK}]\n`, 1);
  return failure(`Failure [INSTALL_PARSE_FAILED_NO_CERTIFICATES: Failed to collect certificates from ${STAGED_APK}: No APK Signature Scheme v2 signature in package]\n`, 1);
}

/**
 * `pm clear [--user N] PACKAGE`: the app is stopped and its data gone, as after a fresh install (Contacts asks for its
 * permission again, Notes, Messages and Clock start empty); Android prints Success, or Failed for a package it lacks.
 */
function clearData(phone: PhoneServices, args: string[]): CommandOutput {
  const name = args.filter((arg, index) => !arg.startsWith('-') && args[index - 1] !== '--user')[0];
  const info = name === undefined ? undefined : findPackage(phone, name);
  if (!info) return output('Failed\n', '', 1);
  phone.ui.forceStop(info.name);
  const data = phone.data();
  if (info.name === APP_PACKAGES.contacts) {
    data.contacts = [];
    data.contactsPermission = 'ask';
  } else if (info.name === APP_PACKAGES.notes) data.notes = [];
  else if (info.name === APP_PACKAGES.messages) data.conversations = [];
  else if (info.name === APP_PACKAGES.clock) data.alarms = [];
  return output('Success\n');
}

/** `pm uninstall [-k] [--user N] PACKAGE`: only apps the person installed can go (here ADBKeyBoard); system apps stay. */
function uninstall(phone: PhoneServices, args: string[]): CommandOutput {
  const name = args.filter((arg, index) => !arg.startsWith('-') && args[index - 1] !== '--user')[0];
  if (name === undefined) return failure('Error: package name not specified\n', 1);
  if (name === ADB_KEYBOARD_PACKAGE && phone.data().adbKeyboardInstalled) {
    phone.data().adbKeyboardInstalled = false;
    if (phone.ui.imeId.startsWith(`${ADB_KEYBOARD_PACKAGE}/`)) phone.ui.setIme(LATIN_IME_ID);
    return output('Success\n');
  }
  return failure('Failure [DELETE_FAILED_INTERNAL_ERROR]\n', 1);
}
