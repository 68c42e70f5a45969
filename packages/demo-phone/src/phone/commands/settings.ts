import type { PhoneSettings } from '../model';
import { failure, output, type CommandHandler } from '../shell/interpreter';
import type { PhoneServices } from './context';
import { installedImeIds } from './ime';

/** `settings get|put|delete|list NAMESPACE KEY [VALUE]`; modelled keys map onto the phone's switches. */

const NAMESPACES = new Set(['system', 'secure', 'global']);

interface ModelledSetting {
  field: keyof PhoneSettings;
  /** Value stored for on/off. */
  on: string;
  off: string;
}

const MODELLED: Record<string, ModelledSetting> = {
  'global/wifi_on': { field: 'wifi', on: '1', off: '0' },
  'global/bluetooth_on': { field: 'bluetooth', on: '1', off: '0' },
  'global/mobile_data': { field: 'mobileData', on: '1', off: '0' },
  'global/airplane_mode_on': { field: 'airplaneMode', on: '1', off: '0' },
  'secure/ui_night_mode': { field: 'darkTheme', on: '2', off: '1' },
};

const DEFAULTS: Record<string, string> = {
  'system/screen_brightness': '166',
  'system/screen_off_timeout': '30000',
  'system/font_scale': '1.0',
  // Auto-rotate is off (the Settings app says so); the display turns with user_rotation.
  'system/accelerometer_rotation': '0',
  'system/user_rotation': '0',
  'secure/default_input_method': '',
  'global/adb_enabled': '1',
  'global/development_settings_enabled': '1',
  'global/stay_on_while_plugged_in': '0',
  'global/device_name': 'AMC Virtual Phone',
};

export function settingsCommand(phone: PhoneServices): CommandHandler {
  return ({ args }) => {
    const positional = args.filter((arg, index) => arg !== '--user' && args[index - 1] !== '--user');
    const [verb, namespace, key, value] = positional;
    if (verb === undefined || namespace === undefined) {
      return failure('usage:  settings [--user <USER_ID> | current] get namespace key\n        settings put namespace key value\n', 255);
    }
    if (!NAMESPACES.has(namespace)) return failure(`Invalid namespace '${namespace}'\n`, 255);
    const settings = phone.data().settings;
    const read = (name: string): string | undefined => {
      const modelled = MODELLED[`${namespace}/${name}`];
      if (modelled) return settings[modelled.field] ? modelled.on : modelled.off;
      if (name === 'default_input_method' && namespace === 'secure') return phone.ui.imeId;
      return phone.extraSettings.get(`${namespace}/${name}`) ?? DEFAULTS[`${namespace}/${name}`];
    };
    switch (verb) {
      case 'get':
        if (key === undefined) return failure('Usage: settings get namespace key\n', 255);
        return output(`${read(key) ?? 'null'}\n`);
      case 'put': {
        if (key === undefined || value === undefined) return failure('Usage: settings put namespace key value\n', 255);
        const modelled = MODELLED[`${namespace}/${key}`];
        if (namespace === 'secure' && key === 'default_input_method') {
          if (!installedImeIds(phone).includes(value)) return failure(`Unknown input method ${value}\n`, 255);
          phone.ui.setIme(value);
        } else if (modelled) {
          settings[modelled.field] = value === modelled.on;
          phone.ui.changed();
        } else {
          phone.extraSettings.set(`${namespace}/${key}`, value);
        }
        return output();
      }
      case 'delete':
        if (key === undefined) return failure('Usage: settings delete namespace key\n', 255);
        return output(`Deleted ${phone.extraSettings.delete(`${namespace}/${key}`) ? 1 : 0} rows\n`);
      case 'list': {
        const names = new Set<string>();
        for (const map of [Object.keys(MODELLED), Object.keys(DEFAULTS), [...phone.extraSettings.keys()]]) {
          for (const entry of map) if (entry.startsWith(`${namespace}/`)) names.add(entry.slice(namespace.length + 1));
        }
        return output([...names].sort().map((name) => `${name}=${read(name) ?? 'null'}\n`).join(''));
      }
      default:
        return failure(`Invalid command: ${verb}\n`, 255);
    }
  };
}
