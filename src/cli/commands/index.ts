import type { CliCommand } from '../command';
import { actCommand } from './act';
import { connectCommand } from './connect';
import { devicesCommand } from './devices';
import { doctorCommand } from './doctor';
import { disconnectCommand } from './disconnect';
import { evalCommand } from './eval';
import { fleetCommand } from './fleet';
import { mcpCommand } from './mcp';
import { observeCommand } from './observe';
import { pairCommand } from './pair';
import { controlPlaneCommand } from './control-plane';
import { runCommand } from './run';
import { scheduleCommand } from './schedule';
import { serveCommand } from './serve';
import { submitCommand } from './submit';
import { virtualDeviceCommand } from './virtual-device';
import { workerCommand } from './worker';

/** Every `amc` subcommand, in the order `amc --help` lists them. Add new commands here. */
export const commands: readonly CliCommand[] = [
  serveCommand,
  runCommand,
  devicesCommand,
  doctorCommand,
  connectCommand,
  disconnectCommand,
  pairCommand,
  observeCommand,
  actCommand,
  evalCommand,
  mcpCommand,
  virtualDeviceCommand,
  controlPlaneCommand,
  workerCommand,
  submitCommand,
  fleetCommand,
  scheduleCommand,
];
