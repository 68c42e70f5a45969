import { failure, output, type CommandHandler } from '../shell/interpreter';
import { ADB_IME_ID, LATIN_IME_ID } from '../ui/phone-ui';
import type { PhoneServices } from './context';

/** `ime list [-s] [-a]`, `ime set|enable ID`, `ime reset`: the default keyboard plus the optional ADBKeyBoard. */

export function installedImeIds(phone: PhoneServices): string[] {
  return phone.data().adbKeyboardInstalled ? [ADB_IME_ID, LATIN_IME_ID] : [LATIN_IME_ID];
}

function describe(id: string): string {
  const [pkg = '', service = ''] = id.split('/');
  return `${id}:\n  mId=${id} mSettingsActivityName=null\n  mIsDefaultResId=0x0\n  Service:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    ServiceInfo:\n      name=${pkg}${service}\n      packageName=${pkg}\n`;
}

export function imeCommand(phone: PhoneServices): CommandHandler {
  return ({ args }) => {
    const [subcommand, ...rest] = args;
    const installed = installedImeIds(phone);
    switch (subcommand) {
      case 'list': {
        const brief = rest.includes('-s');
        return output(installed.map((id) => (brief ? `${id}\n` : describe(id))).join(''));
      }
      case 'enable': {
        const id = rest.find((arg) => !arg.startsWith('-'));
        if (!id || !installed.includes(id)) return failure(`Unknown input method ${id ?? ''} cannot be enabled for user #0\n`, 255);
        return output(`Input method ${id}: already enabled for user #0\n`);
      }
      case 'set': {
        const id = rest.find((arg) => !arg.startsWith('-'));
        if (!id || !installed.includes(id)) return failure(`Unknown input method ${id ?? ''} cannot be selected for user #0\n`, 255);
        phone.ui.setIme(id);
        return output(`Input method ${id} selected for user #0\n`);
      }
      case 'reset':
        phone.ui.setIme(LATIN_IME_ID);
        return output(`Reset current and enabled IMEs for user #0\n  Selected: ${LATIN_IME_ID}\n`);
      default:
        return failure('ime <command>:\n  list [-a] [-s]\n  enable [--user <USER_ID>] <ID>\n  set [--user <USER_ID>] <ID>\n  reset\n', 255);
    }
  };
}
