import { APP_PACKAGES, type PhoneSettings } from '../model';
import { DEVICE_IDENTITY, SYSTEM_PROPERTIES } from '../properties';
import { newScreen, type AppDefinition, type UiContext } from '../ui/app';
import { node, rect, type ViewNode } from '../ui/view';
import { listRow, scrollList, toolbar, TOOLBAR_HEIGHT, W, type ListItem } from '../ui/widgets';

/** Settings: a long home list (About phone at its end) and sub-pages with the Wi-Fi, Bluetooth and Dark theme switches. */

const PKG = APP_PACKAGES.settings;

interface HomeEntry {
  key: string;
  title: string;
  summary: string;
  color: string;
}

const HOME_ENTRIES: HomeEntry[] = [
  { key: 'network', title: 'Network & internet', summary: 'Wi-Fi, mobile data, hotspot', color: '#1A73E8' },
  { key: 'connected', title: 'Connected devices', summary: 'Bluetooth, pairing', color: '#00897B' },
  { key: 'apps', title: 'Apps', summary: 'Recent apps, default apps', color: '#F4511E' },
  { key: 'notifications', title: 'Notifications', summary: 'Notification history, conversations', color: '#E53935' },
  { key: 'battery', title: 'Battery', summary: '100%', color: '#43A047' },
  { key: 'storage', title: 'Storage', summary: '34% used, 84 GB free', color: '#8E24AA' },
  { key: 'sound', title: 'Sound & vibration', summary: 'Volume, haptics, Do Not Disturb', color: '#3949AB' },
  { key: 'display', title: 'Display', summary: 'Dark theme, font size, brightness', color: '#FB8C00' },
  { key: 'wallpaper', title: 'Wallpaper & style', summary: 'Colors, themed icons, app grid', color: '#D81B60' },
  { key: 'accessibility', title: 'Accessibility', summary: 'Display, interaction, audio', color: '#5E35B1' },
  { key: 'security', title: 'Security & privacy', summary: 'App security, device lock, permissions', color: '#039BE5' },
  { key: 'location', title: 'Location', summary: 'On, 3 apps have access to location', color: '#7CB342' },
  { key: 'safety', title: 'Safety & emergency', summary: 'Emergency SOS, medical info, alerts', color: '#C62828' },
  { key: 'accounts', title: 'Passwords & accounts', summary: 'Saved passwords, autofill, synced accounts', color: '#6D4C41' },
  { key: 'wellbeing', title: 'Digital Wellbeing & parental controls', summary: 'Screen time, app timers, bedtime schedules', color: '#00ACC1' },
  { key: 'system', title: 'System', summary: 'Languages, gestures, time, backup', color: '#546E7A' },
  { key: 'about', title: 'About phone', summary: 'AMC Virtual Phone', color: '#757575' },
];

const HOME_ROW_HEIGHT = 210;
const PAGE_ROW_HEIGHT = 200;

type SettingKey = keyof PhoneSettings;

/** What system_server logs when Settings flips a switch (the services' own tags and wording, shortened). */
const TOGGLE_LOG: Record<SettingKey, { tag: string; message: (on: boolean) => string }> = {
  wifi: { tag: 'WifiService', message: (on) => `setWifiEnabled package=${PKG} uid=1000 enable=${on}` },
  mobileData: { tag: 'PhoneInterfaceManager', message: (on) => `setDataEnabled(enable=${on}) by ${PKG}` },
  bluetooth: { tag: 'BluetoothManagerService', message: (on) => (on ? `enable(${PKG})` : `disable(${PKG}, persist=true)`) },
  airplaneMode: { tag: 'ConnectivityService', message: (on) => `setAirplaneMode(enable=${on}) by ${PKG}` },
  darkTheme: { tag: 'UiModeManager', message: (on) => `setNightMode(${on ? 'MODE_NIGHT_YES' : 'MODE_NIGHT_NO'}) from ${PKG}` },
};

function flip(ctx: UiContext, key: SettingKey): void {
  const on = !ctx.data.settings[key];
  ctx.data.settings[key] = on;
  const entry = TOGGLE_LOG[key];
  ctx.log({ priority: 'I', tag: entry.tag, message: entry.message(on), process: 'system_server' });
}

interface PageRow {
  title: string;
  summary?: string;
  toggle?: SettingKey;
}

function pageRows(key: string, settings: PhoneSettings): PageRow[] {
  switch (key) {
    case 'network':
      return [
        { title: 'Wi-Fi', summary: settings.wifi ? 'Connected to AndroidWifi' : 'Off', toggle: 'wifi' },
        { title: 'Airplane mode', summary: settings.airplaneMode ? 'On' : 'Off', toggle: 'airplaneMode' },
        { title: 'Mobile network', summary: 'T-Mobile' },
        { title: 'Hotspot & tethering', summary: 'Off' },
        { title: 'Data Saver', summary: 'Off' },
        { title: 'VPN', summary: 'None' },
        { title: 'Private DNS', summary: 'Automatic' },
      ];
    case 'connected':
      return [
        { title: 'Bluetooth', summary: settings.bluetooth ? 'On, visible to nearby devices' : 'Off', toggle: 'bluetooth' },
        { title: 'Pair new device', summary: 'No devices found nearby' },
        { title: 'Connection preferences', summary: 'NFC, casting, printing' },
      ];
    case 'display':
      return [
        { title: 'Brightness level', summary: '65%' },
        { title: 'Dark theme', summary: settings.darkTheme ? 'On' : 'Off', toggle: 'darkTheme' },
        { title: 'Screen timeout', summary: 'After 30 seconds' },
        { title: 'Font size and text', summary: 'Default' },
        { title: 'Auto-rotate screen', summary: 'Off' },
      ];
    case 'about':
      return [
        { title: 'Device name', summary: 'AMC Virtual Phone' },
        { title: 'Phone number', summary: '+1 555-0199' },
        { title: 'Model', summary: DEVICE_IDENTITY.model },
        { title: 'Android version', summary: SYSTEM_PROPERTIES['ro.build.version.release'] },
        { title: 'Android security update', summary: 'October 5, 2023' },
        { title: 'Build number', summary: SYSTEM_PROPERTIES['ro.build.id'] },
        { title: 'IP address', summary: settings.wifi ? '192.168.1.23' : 'Unavailable' },
      ];
    default: {
      const entry = HOME_ENTRIES.find((candidate) => candidate.key === key);
      return (entry?.summary.split(', ') ?? []).map((part) => ({ title: part.charAt(0).toUpperCase() + part.slice(1) }));
    }
  }
}

function homeScreen(ctx: UiContext): ViewNode[] {
  const top = ctx.frame.top + TOOLBAR_HEIGHT;
  const items: ListItem[] = HOME_ENTRIES.map((entry) => ({
    height: HOME_ROW_HEIGHT,
    build: (bounds) =>
      listRow(ctx, bounds, {
        title: entry.title,
        summary: entry.key === 'network' ? (ctx.data.settings.wifi ? 'Wi-Fi on, mobile data' : entry.summary) : entry.summary,
        avatar: { letter: entry.title.charAt(0), color: entry.color },
        onClick: () => ctx.nav.push(newScreen('page', { page: entry.key })),
      }),
  }));
  return [
    toolbar(ctx, { title: 'Settings' }),
    scrollList(ctx, { id: 'home', bounds: rect(0, top, W, ctx.frame.bottom), items, resourceId: `${PKG}:id/recycler_view`, paddingBottom: 42 }),
  ];
}

function subPage(ctx: UiContext, key: string): ViewNode[] {
  const entry = HOME_ENTRIES.find((candidate) => candidate.key === key);
  const top = ctx.frame.top + TOOLBAR_HEIGHT;
  const settings = ctx.data.settings;
  const items: ListItem[] = pageRows(key, settings).map((row) => ({
    height: PAGE_ROW_HEIGHT,
    build: (bounds) => {
      const toggle = row.toggle;
      return listRow(ctx, bounds, {
        title: row.title,
        summary: row.summary,
        switchChecked: toggle ? settings[toggle] : undefined,
        onClick: toggle ? () => flip(ctx, toggle) : undefined,
      });
    },
  }));
  return [
    toolbar(ctx, { title: entry?.title ?? 'Settings', nav: { icon: 'back', onClick: () => ctx.nav.pop() } }),
    scrollList(ctx, { id: 'page', bounds: rect(0, top, W, ctx.frame.bottom), items, resourceId: `${PKG}:id/recycler_view` }),
  ];
}

export const settingsApp: AppDefinition = {
  pkg: PKG,
  label: 'Settings',
  mainActivity: '.Settings',
  icon: { letter: 'S', color: '#5F6368' },
  rootScreen: () => newScreen('home'),
  build(ctx) {
    const { screen } = ctx;
    if (screen.route === 'page') {
      return { activity: '.SubSettings', content: [appRoot(ctx, subPage(ctx, String(screen.params.page)))] };
    }
    return { activity: '.Settings', content: [appRoot(ctx, homeScreen(ctx))] };
  },
};

function appRoot(ctx: UiContext, children: ViewNode[]): ViewNode {
  return node('android.widget.LinearLayout', ctx.frame, { resourceId: `${PKG}:id/settings_main` }, children);
}
