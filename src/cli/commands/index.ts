import type { CliCommand } from '../command';

/** A subcommand as `amc --help` lists it; its module (and what that imports) loads only when it runs. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  load(): Promise<CliCommand>;
}

/**
 * Every `amc` subcommand, in the order `amc --help` lists them. Add new commands here. Loading a command's module
 * only when it runs keeps `amc --version`, `amc --help` and every other command from paying for all of them.
 */
export const commands: readonly CommandEntry[] = [
  {
    name: 'serve',
    summary: 'serve the app UI in a browser on 127.0.0.1 (prints the URL with its access token)',
    load: async () => (await import('./serve')).serveCommand,
  },
  {
    name: 'run',
    summary: 'carry out a goal on a device, printing each turn (action, rationale, thinking, outcome) and the result',
    load: async () => (await import('./run')).runCommand,
  },
  {
    name: 'replay',
    summary: 'carry out a successful task from history again on the fresh screen, without the model where the screen allows it',
    load: async () => (await import('./replay')).replayCommand,
  },
  {
    name: 'flow',
    summary: 'flow files (YAML): check one (problems with line numbers), run one on a phone (--junit for CI), export a finished task as one',
    load: async () => (await import('./flow')).flowCommand,
  },
  {
    name: 'devices',
    summary: 'list the phones the adb server sees, with model, Android version, screen and what to do when not ready',
    load: async () => (await import('./devices')).devicesCommand,
  },
  {
    name: 'doctor',
    summary: 'check that a task can run: adb, the adb server, phones (with the fix for each), settings and the model',
    load: async () => (await import('./doctor')).doctorCommand,
  },
  {
    name: 'connect',
    summary: 'connect to a phone over TCP/IP (wireless debugging or `adb tcpip`)',
    load: async () => (await import('./connect')).connectCommand,
  },
  {
    name: 'disconnect',
    summary: 'disconnect a phone connected over TCP/IP',
    load: async () => (await import('./disconnect')).disconnectCommand,
  },
  {
    name: 'pair',
    summary: 'pair with a phone for wireless debugging (Android 11+: "Pair device with pairing code")',
    load: async () => (await import('./pair')).pairCommand,
  },
  {
    name: 'observe',
    summary: 'read the phone once: print the Scene exactly as the planner receives it, and the timings',
    load: async () => (await import('./observe')).observeCommand,
  },
  {
    name: 'act',
    summary: 'run one action tool on the phone through the Executor (observes first so element ids resolve)',
    load: async () => (await import('./act')).actCommand,
  },
  {
    name: 'notes',
    summary: 'the notes per app the planner receives (learned from completed tasks): list them, or remove a wrong one',
    load: async () => (await import('./notes')).notesCommand,
  },
  {
    name: 'eval',
    summary: 'measure the configured planner on the task suite, on demo phones of its own: a table, totals, an HTML report',
    load: async () => (await import('./eval')).evalCommand,
  },
  {
    name: 'mcp',
    summary: 'serve the app to other agents over the Model Context Protocol (stdio, or Streamable HTTP on 127.0.0.1 with --http)',
    load: async () => (await import('./mcp')).mcpCommand,
  },
  {
    name: 'virtual-device',
    summary: 'run the simulated Android phone (reach it with `adb connect`, steer it through its HTTP control API)',
    load: async () => (await import('./virtual-device')).virtualDeviceCommand,
  },
  {
    name: 'control-plane',
    summary: 'run the Cloud Control Plane (planner decisions for cloud-proxy hosts), manage its host tokens, show usage',
    load: async () => (await import('./control-plane')).controlPlaneCommand,
  },
  {
    name: 'worker',
    summary: "offer this machine's phones to the fleet on Redis and run the goals sent to them, planned here with this machine's settings",
    load: async () => (await import('./worker')).workerCommand,
  },
  {
    name: 'submit',
    summary: 'queue a goal on the fleet for one phone, every phone of a group, or the first free phone; --wait prints each outcome',
    load: async () => (await import('./submit')).submitCommand,
  },
  {
    name: 'fleet',
    summary: 'the fleet on Redis: workers, their phones (ready, busy, offline) and the queued, running and finished jobs',
    load: async () => (await import('./fleet')).fleetCommand,
  },
  {
    name: 'schedule',
    summary: 'run a goal on a schedule (cron): on this machine, fired by the running app, or on the fleet with --redis: add, list, remove',
    load: async () => (await import('./schedule')).scheduleCommand,
  },
];
