import type { CliCommand } from '../command';
import { controlPlaneCommand } from './control-plane';
import { serveCommand } from './serve';
import { virtualDeviceCommand } from './virtual-device';

/** Every `amc` subcommand, in the order `amc --help` lists them. Add new commands here. */
export const commands: readonly CliCommand[] = [serveCommand, controlPlaneCommand, virtualDeviceCommand];
