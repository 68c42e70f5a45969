import { USER_APPS } from '../apps/index';
import { LAUNCHER_ACTIVITY, LAUNCHER_PACKAGE } from '../apps/launcher';
import { PERMISSION_CONTROLLER_PACKAGE } from '../apps/contacts';
import { SCREEN_DENSITY, SCREEN_HEIGHT, SCREEN_WIDTH } from '../properties';
import { failure, output, type CommandHandler, type CommandOutput } from '../shell/interpreter';
import { ADB_IME_ID, LATIN_IME_ID } from '../ui/phone-ui';
import { ADB_KEYBOARD_PACKAGE, LATIN_IME_PACKAGE, SYSTEM_UI_PACKAGE } from '../ui/system-ui';
import type { PhoneServices } from './context';

/** Activity and package commands: `am`, `monkey`, `pm`, `dumpsys`, `wm`. */

const SYSTEM_PACKAGES = ['android', SYSTEM_UI_PACKAGE, LAUNCHER_PACKAGE, PERMISSION_CONTROLLER_PACKAGE, LATIN_IME_PACKAGE, 'com.android.shell'];
const THIRD_PARTY = new Set(['com.amc.notes', ADB_KEYBOARD_PACKAGE]);

export function installedPackages(phone: PhoneServices): string[] {
  const packages = [...SYSTEM_PACKAGES, ...USER_APPS.map((app) => app.pkg)];
  if (phone.data().adbKeyboardInstalled) packages.push(ADB_KEYBOARD_PACKAGE);
  return packages.sort();
}

/** `.Settings` -> `com.android.settings.Settings`. */
export const fullClassName = (pkg: string, activity: string): string => (activity.startsWith('.') ? pkg + activity : activity);

/** A stable, fake object id like the hex hashes dumpsys prints. */
function objectId(text: string): string {
  let hash = 0x811c9dc5;
  for (const char of text) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0').slice(0, 7);
}

function taskId(pkg: string): number {
  const index = USER_APPS.findIndex((app) => app.pkg === pkg);
  return index < 0 ? 1 : 20 + index;
}

function activityRecord(component: string): string {
  const [pkg = ''] = component.split('/');
  return `ActivityRecord{${objectId(component)} u0 ${component} t${taskId(pkg)}}`;
}

function windowRecord(component: string): string {
  const [pkg = '', activity = ''] = component.split('/');
  return `Window{${objectId('w' + component)} u0 ${pkg}/${fullClassName(pkg, activity)}}`;
}

function parseIntentArgs(args: string[]): { component?: string; action?: string; categories: string[]; extras: Map<string, string>; flags: Set<string> } {
  const extras = new Map<string, string>();
  const categories: string[] = [];
  const flags = new Set<string>();
  let component: string | undefined;
  let action: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const next = (): string => args[++index] ?? '';
    if (arg === '-n') component = next();
    else if (arg === '-a') action = next();
    else if (arg === '-c') categories.push(next());
    else if (arg === '--es' || arg === '--ei' || arg === '--ez' || arg === '--el') {
      const key = next();
      extras.set(key, next());
    } else if (arg === '--user' || arg === '-f' || arg === '--activity-clear-top') {
      if (arg !== '--activity-clear-top') next();
    } else if (arg.startsWith('-')) flags.add(arg);
  }
  return { component, action, categories, extras, flags };
}

/** Resolves `PKG/.Activity` or `PKG/PKG.Activity` to a launchable app. */
function launchable(component: string): { pkg: string; activity: string } | undefined {
  const [pkg = '', activity = ''] = component.split('/');
  const app = USER_APPS.find((candidate) => candidate.pkg === pkg);
  if (!app) return undefined;
  const matches = activity === app.mainActivity || activity === fullClassName(pkg, app.mainActivity);
  return matches ? { pkg, activity: app.mainActivity } : undefined;
}

const ADB_BROADCASTS = new Set(['ADB_INPUT_TEXT', 'ADB_INPUT_B64', 'ADB_INPUT_CODE', 'ADB_CLEAR_TEXT', 'ADB_EDITOR_CODE']);

export function amCommand(phone: PhoneServices): CommandHandler {
  return async ({ args, signal }) => {
    const [subcommand, ...rest] = args;
    const intent = parseIntentArgs(rest);
    switch (subcommand) {
      case 'start':
      case 'start-activity':
        return startActivity(phone, intent, signal);
      case 'force-stop':
      case 'kill': {
        const pkg = rest.find((arg) => !arg.startsWith('-'));
        if (!pkg) return failure('Error: no package specified\n', 255);
        phone.ui.forceStop(pkg);
        return output();
      }
      case 'broadcast': {
        await phone.delay('input', signal);
        const action = intent.action ?? '';
        const summary = `Broadcasting: Intent { ${action ? `act=${action} ` : ''}flg=0x400000${intent.extras.size ? ' (has extras)' : ''} }\n`;
        if (ADB_BROADCASTS.has(action)) deliverToAdbKeyboard(phone, action, intent.extras);
        return output(`${summary}Broadcast completed: result=0\n`);
      }
      case undefined:
        return failure('Activity manager (activity) commands:\n  start [options] <INTENT>\n  force-stop <PACKAGE>\n  broadcast [options] <INTENT>\n', 1);
      default:
        return failure(`Unknown command: ${subcommand}\n`, 255);
    }
  };
}

async function startActivity(phone: PhoneServices, intent: ReturnType<typeof parseIntentArgs>, signal: AbortSignal): Promise<CommandOutput> {
  await phone.delay('input', signal);
  if (!intent.component) {
    if (intent.categories.includes('android.intent.category.HOME')) {
      phone.ui.goHome();
      return output(`Starting: Intent { act=${intent.action ?? 'android.intent.action.MAIN'} cat=[android.intent.category.HOME] }\n`);
    }
    return failure('Error: Intent does not match any activities: Intent { }\n', 1);
  }
  const target = launchable(intent.component);
  if (!target) {
    const [pkg = '', activity = ''] = intent.component.split('/');
    return output(
      `Starting: Intent { cmp=${intent.component} }\n`,
      `Error type 3\nError: Activity class {${pkg}/${fullClassName(pkg, activity)}} does not exist.\n`,
      1,
    );
  }
  if (intent.flags.has('-S')) phone.ui.forceStop(target.pkg);
  phone.ui.startApp(target.pkg, { newInstance: true });
  const started = `Starting: Intent { cmp=${target.pkg}/${target.activity} }\n`;
  if (!intent.flags.has('-W')) return output(started);
  return output(`${started}Status: ok\nLaunchState: COLD\nActivity: ${target.pkg}/${target.activity}\nTotalTime: 312\nWaitTime: 315\nComplete\n`);
}

function deliverToAdbKeyboard(phone: PhoneServices, action: string, extras: Map<string, string>): void {
  // Without the IME installed and selected nobody receives the broadcast: it completes and nothing happens.
  if (!phone.data().adbKeyboardInstalled || phone.ui.imeId !== ADB_IME_ID) return;
  const message = extras.get('msg') ?? '';
  if (action === 'ADB_INPUT_TEXT') phone.ui.typeText(message);
  else if (action === 'ADB_INPUT_B64') phone.ui.typeText(Buffer.from(message, 'base64').toString('utf8'));
  else if (action === 'ADB_INPUT_CODE') phone.ui.key(Number(extras.get('code')));
  else if (action === 'ADB_CLEAR_TEXT') phone.ui.clearFocusedField();
}

export function monkeyCommand(phone: PhoneServices): CommandHandler {
  return async ({ args, signal }) => {
    const echo = args.map((arg) => `  bash arg: ${arg}\n`).join('');
    const index = args.indexOf('-p');
    const pkg = index >= 0 ? args[index + 1] : undefined;
    const app = USER_APPS.find((candidate) => candidate.pkg === pkg);
    if (!app) return output(echo, '** No activities found to run, monkey aborted.\n', 252);
    await phone.delay('input', signal);
    phone.ui.startApp(app.pkg);
    return output(`${echo}Events injected: 1\n## Network stats: elapsed time=18ms (0ms mobile, 0ms wifi, 18ms not connected)\n`);
  };
}

export function pmCommand(phone: PhoneServices): CommandHandler {
  return ({ args }) => {
    const [subcommand, target, ...rest] = args;
    if (subcommand === 'list' && (target === 'packages' || target === 'package')) {
      const flags = rest.filter((arg) => arg.startsWith('-'));
      const filter = rest.find((arg) => !arg.startsWith('-'));
      const packages = installedPackages(phone).filter((pkg) => {
        if (flags.includes('-3') && !THIRD_PARTY.has(pkg)) return false;
        if (flags.includes('-s') && THIRD_PARTY.has(pkg)) return false;
        return filter === undefined || pkg.includes(filter);
      });
      return output(packages.map((pkg) => `package:${pkg}\n`).join(''));
    }
    if (subcommand === 'path' && target) {
      if (!installedPackages(phone).includes(target)) return output('', '', 1);
      const folder = THIRD_PARTY.has(target) ? `/data/app/${target}-1` : `/system/priv-app/${target.split('.').pop()}`;
      return output(`package:${folder}/base.apk\n`);
    }
    return failure('Package manager (package) commands:\n  list packages [-3] [-s] [FILTER]\n  path PACKAGE\n', 255);
  };
}

export function dumpsysCommand(phone: PhoneServices): CommandHandler {
  return ({ args }) => {
    const [service, ...rest] = args;
    const ui = phone.ui;
    const snapshot = ui.snapshot();
    const focusedApp = activityRecord(snapshot.activity);
    switch (service) {
      case 'window': {
        const focus = ui.isScreenOn ? windowRecord(snapshot.activity) : `Window{${objectId('shade')} u0 NotificationShade}`;
        const ime = ui.isKeyboardShown ? `  mInputMethodWindow=Window{${objectId('ime')} u0 InputMethod}\n` : '';
        const windows = rest[0] === 'windows' || rest.length === 0;
        return output(
          (windows ? 'WINDOW MANAGER WINDOWS (dumpsys window windows)\n' : '') +
            `  mGlobalConfiguration={1.0 ?mcc?mnc [en_US] ldltr sw411dp w411dp h866dp ${SCREEN_DENSITY}dpi nrml long port finger -keyb/v/h -nav/h}\n` +
            `  mCurrentFocus=${focus}\n` +
            `  mFocusedApp=${focusedApp}\n` +
            ime +
            `  init=${SCREEN_WIDTH}x${SCREEN_HEIGHT} ${SCREEN_DENSITY}dpi cur=${SCREEN_WIDTH}x${SCREEN_HEIGHT} app=${SCREEN_WIDTH}x2274\n` +
            `  mScreenOn=${ui.isScreenOn}\n`,
        );
      }
      case 'activity': {
        if (rest[0] !== undefined && rest[0] !== 'activities' && rest[0] !== 'a') return output(`No activities for ${rest[0]}\n`);
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
      case 'power':
        return output(
          `POWER MANAGER (dumpsys power)\n  mWakefulness=${ui.isScreenOn ? 'Awake' : 'Asleep'}\n` +
            `  mHoldingDisplaySuspendBlocker=${ui.isScreenOn}\nDisplay Power: state=${ui.isScreenOn ? 'ON' : 'OFF'}\n`,
        );
      case 'input_method':
        return output(
          `  mCurMethodId=${ui.imeId}\n  mInputShown=${ui.isKeyboardShown}\n` +
            `  mEnabledInputMethods=${[LATIN_IME_ID, ...(phone.data().adbKeyboardInstalled ? [ADB_IME_ID] : [])].join(':')}\n`,
        );
      case undefined:
        return output('Currently running services:\n  activity\n  input_method\n  power\n  window\n');
      default:
        return output(`Can't find service: ${service}\n`);
    }
  };
}

export const wmCommand: CommandHandler = ({ args }) => {
  const [subcommand, value] = args;
  if (subcommand === 'size' && value === undefined) return output(`Physical size: ${SCREEN_WIDTH}x${SCREEN_HEIGHT}\n`);
  if (subcommand === 'density' && value === undefined) return output(`Physical density: ${SCREEN_DENSITY}\n`);
  if ((subcommand === 'size' || subcommand === 'density') && value !== undefined) {
    return failure(`Error: changing the display ${subcommand} is not supported on this phone\n`, 1);
  }
  return failure('Window manager (window) commands:\n  size [reset|WxH]\n  density [reset|DENSITY]\n', 255);
};
