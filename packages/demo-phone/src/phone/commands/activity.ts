import { browserPage } from '../apps/browser';
import { USER_APPS } from '../apps/index';
import { APP_PACKAGES } from '../model';
import { SCREEN_DENSITY, SCREEN_HEIGHT, SCREEN_WIDTH } from '../properties';
import { failure, output, type CommandHandler, type CommandOutput } from '../shell/interpreter';
import { ADB_IME_ID } from '../ui/phone-ui';
import type { PhoneServices } from './context';
import { fullClassName } from './records';

/** Activity commands: `am`, `monkey`, `wm`. */

function parseIntentArgs(args: string[]): { component?: string; action?: string; data?: string; categories: string[]; extras: Map<string, string>; flags: Set<string> } {
  const extras = new Map<string, string>();
  const categories: string[] = [];
  const flags = new Set<string>();
  let component: string | undefined;
  let action: string | undefined;
  let data: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const next = (): string => args[++index] ?? '';
    if (arg === '-n') component = next();
    else if (arg === '-a') action = next();
    else if (arg === '-d') data = next();
    else if (arg === '-c') categories.push(next());
    else if (arg === '--es' || arg === '--ei' || arg === '--ez' || arg === '--el') {
      const key = next();
      extras.set(key, next());
    } else if (arg === '--user' || arg === '-f' || arg === '--activity-clear-top') {
      if (arg !== '--activity-clear-top') next();
    } else if (arg.startsWith('-')) flags.add(arg);
  }
  return { component, action, data, categories, extras, flags };
}

/** Resolves `PKG/.Activity` or `PKG/PKG.Activity` to a launchable app. */
function launchable(component: string): { pkg: string; activity: string } | undefined {
  const [pkg = '', activity = ''] = component.split('/');
  const app = USER_APPS.find((candidate) => candidate.pkg === pkg);
  if (!app) return undefined;
  const matches = activity === app.mainActivity || activity === fullClassName(pkg, app.mainActivity);
  return matches ? { pkg, activity: app.mainActivity } : undefined;
}

const VIEW_ACTION = 'android.intent.action.VIEW';
/** Settings actions the Settings app answers (its main screen lists them all). */
const SETTINGS_ACTIONS = new Set([
  'android.settings.SETTINGS',
  'android.settings.WIFI_SETTINGS',
  'android.settings.WIRELESS_SETTINGS',
  'android.settings.AIRPLANE_MODE_SETTINGS',
  'android.settings.BLUETOOTH_SETTINGS',
  'android.settings.DISPLAY_SETTINGS',
]);

/** Intents print a URI's scheme and host only (`https://example.com/...`), as Android does since 11. */
function redactedUri(uri: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/i.exec(uri);
  return match && match[2] !== '' ? `${match[1]}/...` : uri;
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
    if (intent.action === VIEW_ACTION && intent.data !== undefined && /^https?:/i.test(intent.data)) {
      phone.ui.startApp(APP_PACKAGES.browser, { screen: browserPage(intent.data) });
      return output(`Starting: Intent { act=${VIEW_ACTION} dat=${redactedUri(intent.data)} }\n`);
    }
    const settingsScreen = intent.action === undefined ? undefined : SETTINGS_ACTIONS.has(intent.action);
    if (settingsScreen) {
      phone.ui.startApp(APP_PACKAGES.settings, { newInstance: true });
      return output(`Starting: Intent { act=${intent.action} }\n`);
    }
    if (intent.action !== undefined) {
      const data = intent.data === undefined ? '' : ` dat=${redactedUri(intent.data)}`;
      return output(`Starting: Intent { act=${intent.action}${data} }\n`, `Error: Activity not started, unable to resolve Intent { act=${intent.action}${data} flg=0x10000000 }\n`, 1);
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

/** Where `wm density N` keeps its override, as Android does (Settings.Secure.DISPLAY_DENSITY_FORCED). */
export const FORCED_DENSITY_SETTING = 'secure/display_density_forced';

/** The density override `wm density N` set, if any. */
export function forcedDensity(phone: Pick<PhoneServices, 'extraSettings'>): number | undefined {
  const forced = Number(phone.extraSettings.get(FORCED_DENSITY_SETTING));
  return forced > 0 ? forced : undefined;
}

/**
 * `wm size` and `wm density`. A density override is kept (and reported) as a phone keeps it, across reconnects until
 * `wm density reset`; the layout stays drawn in pixels. The size cannot change: this phone draws at its panel's size.
 */
export function wmCommand(phone: PhoneServices): CommandHandler {
  return ({ args }) => {
    const [subcommand, value] = args;
    if (subcommand === 'size' && value === undefined) return output(`Physical size: ${SCREEN_WIDTH}x${SCREEN_HEIGHT}\n`);
    if (subcommand === 'density' && value === undefined) {
      const forced = forcedDensity(phone);
      return output(`Physical density: ${SCREEN_DENSITY}\n${forced === undefined ? '' : `Override density: ${forced}\n`}`);
    }
    if (subcommand === 'density' && value === 'reset') {
      phone.extraSettings.delete(FORCED_DENSITY_SETTING);
      return output();
    }
    if (subcommand === 'density' && value !== undefined) {
      if (!/^\d+$/.test(value) || Number(value) < 72) return failure(`Error: bad number ${value}\n`, 255);
      phone.extraSettings.set(FORCED_DENSITY_SETTING, String(Number(value)));
      return output();
    }
    if (subcommand === 'size' && value !== undefined) return failure('Error: changing the display size is not supported on this phone\n', 1);
    return failure('Window manager (window) commands:\n  size [reset|WxH]\n  density [reset|DENSITY]\n', 255);
  };
}
