import type { PhoneSettings } from '../model';
import { failure, output, type CommandHandler, type CommandOutput } from '../shell/interpreter';
import type { PhoneServices } from './context';

/** The radios and power as Android 14 reports and switches them: `svc`, `cmd wifi`, `dumpsys battery`, `pm list features`. */

const SVC_USAGE =
  'Available commands:\n    help     Show information about the subcommands\n    power    Control the power manager\n' +
  '    data     Control mobile data connectivity\n    wifi     Control the Wi-Fi manager\n    usb      Control Usb state\n' +
  '    nfc      Control NFC functions\n    bluetooth Control Bluetooth service\n    system-server System server process related command\n';

const SVC_RADIOS: Record<string, { field: keyof PhoneSettings; usage: string }> = {
  wifi: { field: 'wifi', usage: 'Control the Wi-Fi manager\n\nusage: svc wifi [enable|disable]\n         Turn Wi-Fi on or off.\n' },
  data: { field: 'mobileData', usage: 'Control mobile data connectivity\n\nusage: svc data [enable|disable]\n         Turn mobile data on or off.\n' },
  bluetooth: { field: 'bluetooth', usage: 'Control Bluetooth service\n\nusage: svc bluetooth [enable|disable]\n         Turn Bluetooth on or off.\n' },
};

/** `svc wifi|data|bluetooth enable|disable`: switches the radio (silently, as the real one does). */
export function svcCommand(phone: PhoneServices): CommandHandler {
  return ({ args }) => {
    const [service, verb] = args;
    const radio = service === undefined ? undefined : SVC_RADIOS[service];
    if (!radio) return output(SVC_USAGE);
    if (verb !== 'enable' && verb !== 'disable') return output(radio.usage);
    setRadio(phone, radio.field, verb === 'enable');
    return output();
  };
}

function setRadio(phone: PhoneServices, field: keyof PhoneSettings, on: boolean): void {
  phone.data().settings[field] = on;
  phone.ui.changed();
}

/** `cmd wifi status` and `cmd wifi set-wifi-enabled enabled|disabled`. */
export function wifiCommand(phone: PhoneServices, args: readonly string[]): CommandOutput {
  const settings = phone.data().settings;
  switch (args[0]) {
    case 'status':
      if (!settings.wifi) return output('Wifi is disabled\nWifi scanning is always available\n');
      return output(
        'Wifi is enabled\nWifi scanning is always available\n==== Primary ClientModeManager instance ====\n' +
          'Wifi is connected to "AndroidWifi"\nWifiInfo: SSID: "AndroidWifi", BSSID: 02:00:00:00:00:00, MAC: 02:00:00:00:00:00, IP: /192.168.1.23, ' +
          'Security type: 2, Supplicant state: COMPLETED, Wi-Fi standard: 11ac, RSSI: -50, Link speed: 433Mbps, Frequency: 5180MHz\n',
      );
    case 'set-wifi-enabled': {
      const value = args[1];
      if (value !== 'enabled' && value !== 'disabled') return failure("Invalid argument: expected 'enabled' or 'disabled'\n", 255);
      setRadio(phone, 'wifi', value === 'enabled');
      return output();
    }
    case undefined:
    case 'help':
      return output('Wi-Fi (wifi) commands:\n  help or -h\n    Print this help text.\n  set-wifi-enabled enabled|disabled\n    Enables/disables Wifi on this device.\n  status\n    Current wifi status\n');
    default:
      return failure(`Unknown command: ${args[0]}\n`, 255);
  }
}

/** `dumpsys battery`: full and powered over USB (the phone hangs off adb's cable), as the status bar shows. */
export function batteryDump(): string {
  return (
    'Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  Wireless powered: false\n  Dock powered: false\n' +
    '  Max charging current: 500000\n  Max charging voltage: 5000000\n  Charge counter: 4120000\n  status: 5\n  health: 2\n' +
    '  present: true\n  level: 100\n  scale: 100\n  voltage: 4350\n  temperature: 250\n  technology: Li-ion\n' +
    '  Charging state: 0\n  Charging policy: 1\n  Capacity level: 5\n'
  );
}

/** What the phone's hardware and software offer, as `pm list features` lists them. */
const FEATURES = [
  'android.hardware.audio.output',
  'android.hardware.bluetooth',
  'android.hardware.bluetooth_le',
  'android.hardware.camera',
  'android.hardware.camera.any',
  'android.hardware.faketouch',
  'android.hardware.location',
  'android.hardware.location.network',
  'android.hardware.microphone',
  'android.hardware.screen.landscape',
  'android.hardware.screen.portrait',
  'android.hardware.sensor.accelerometer',
  'android.hardware.telephony',
  'android.hardware.touchscreen',
  'android.hardware.touchscreen.multitouch',
  'android.hardware.usb.accessory',
  'android.hardware.wifi',
  'android.software.app_widgets',
  'android.software.home_screen',
  'android.software.input_methods',
  'android.software.webview',
];

export function listFeatures(): CommandOutput {
  return output(['reqGlEsVersion=0x30002', ...FEATURES].map((feature) => (feature.startsWith('req') ? `${feature}\n` : `feature:${feature}\n`)).join(''));
}
