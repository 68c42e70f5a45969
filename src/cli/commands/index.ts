import type { CliCommand } from '../command';
import { terminalWords } from '../terminal-words';

/**
 * A subcommand as `amc --help` lists it; its module (and what that imports) loads only when it runs. Its one-line
 * summary is the message `cli:command.<name>` (src/shared/i18n/catalogs), in the terminal's language.
 */
export interface CommandEntry {
  readonly name: string;
  load(): Promise<CliCommand>;
}

export const summaryOf = (name: string): string => terminalWords().t(`cli:command.${name}`);

/**
 * Every `amc` subcommand, in the order `amc --help` lists them. Add new commands here (and their summary to the
 * catalogs). Loading a command's module
 * only when it runs keeps `amc --version`, `amc --help` and every other command from paying for all of them.
 */
export const commands: readonly CommandEntry[] = [
  {
    name: 'serve',
    load: async () => (await import('./serve')).serveCommand,
  },
  {
    name: 'run',
    load: async () => (await import('./run')).runCommand,
  },
  {
    name: 'replay',
    load: async () => (await import('./replay')).replayCommand,
  },
  {
    name: 'flow',
    load: async () => (await import('./flow')).flowCommand,
  },
  {
    name: 'devices',
    load: async () => (await import('./devices')).devicesCommand,
  },
  {
    name: 'doctor',
    load: async () => (await import('./doctor')).doctorCommand,
  },
  {
    name: 'connect',
    load: async () => (await import('./connect')).connectCommand,
  },
  {
    name: 'disconnect',
    load: async () => (await import('./disconnect')).disconnectCommand,
  },
  {
    name: 'pair',
    load: async () => (await import('./pair')).pairCommand,
  },
  {
    name: 'observe',
    load: async () => (await import('./observe')).observeCommand,
  },
  {
    name: 'act',
    load: async () => (await import('./act')).actCommand,
  },
  {
    name: 'cache',
    load: async () => (await import('./cache')).cacheCommand,
  },
  {
    name: 'notes',
    load: async () => (await import('./notes')).notesCommand,
  },
  {
    name: 'eval',
    load: async () => (await import('./eval')).evalCommand,
  },
  {
    name: 'mcp',
    load: async () => (await import('./mcp')).mcpCommand,
  },
  {
    name: 'virtual-device',
    load: async () => (await import('./virtual-device')).virtualDeviceCommand,
  },
  {
    name: 'control-plane',
    load: async () => (await import('./control-plane')).controlPlaneCommand,
  },
  {
    name: 'worker',
    load: async () => (await import('./worker')).workerCommand,
  },
  {
    name: 'submit',
    load: async () => (await import('./submit')).submitCommand,
  },
  {
    name: 'fleet',
    load: async () => (await import('./fleet')).fleetCommand,
  },
  {
    name: 'schedule',
    load: async () => (await import('./schedule')).scheduleCommand,
  },
];
