import { failure, output, type CommandHandler } from '../shell/interpreter';
import type { PhoneServices } from './context';
import { wifiCommand } from './radios';

/** `cmd SERVICE ...`: the binder shell commands tools use; the package service is `pm`'s. */

export function cmdCommand(phone: PhoneServices, packageManager: CommandHandler): CommandHandler {
  return (io) => {
    const args = io.args[0] === '-w' ? io.args.slice(1) : io.args;
    const [service, ...rest] = args;
    switch (service) {
      case 'package':
        return packageManager({ ...io, args: rest });
      case 'connectivity':
        return connectivity(phone, rest);
      case 'statusbar':
        return statusbar(phone, rest);
      case 'wifi':
        return wifiCommand(phone, rest);
      case undefined:
      case '-l':
        return output('Currently running services:\n  activity\n  connectivity\n  input\n  package\n  statusbar\n  wifi\n  window\n');
      default:
        return failure(`cmd: Can't find service: ${service}\n`, 20);
    }
  };
}

function connectivity(phone: PhoneServices, args: string[]): ReturnType<CommandHandler> {
  const [subcommand, value] = args;
  if (subcommand !== 'airplane-mode') return output(`Unknown command: ${subcommand ?? ''}\n`, '', 255);
  const settings = phone.data().settings;
  if (value === undefined) return output(`${settings.airplaneMode ? 'enabled' : 'disabled'}\n`);
  if (value !== 'enable' && value !== 'disable') return output('Error: invalid argument. Must be one of: enable, disable\n', '', 255);
  settings.airplaneMode = value === 'enable';
  phone.ui.changed();
  return output();
}

function statusbar(phone: PhoneServices, args: string[]): ReturnType<CommandHandler> {
  switch (args[0]) {
    case 'expand-notifications':
    case 'expand-settings':
      phone.ui.expandShade();
      return output();
    case 'collapse':
      phone.ui.collapseShade();
      return output();
    default:
      return output(
        'Status bar commands:\n  help\n    Print this help text.\n\n  expand-notifications\n    Open the notifications panel.\n\n  expand-settings\n    Open the notifications panel and expand quick settings if present.\n\n  collapse\n    Collapse the notifications and settings panel.\n',
        '',
        args[0] === undefined || args[0] === 'help' ? 0 : 255,
      );
  }
}
