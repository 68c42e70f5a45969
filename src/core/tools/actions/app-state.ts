import { z } from 'zod';
import { AdbError } from '../../device/errors';
import { resolveApp } from '../app-resolver';
import { am } from '../../device/android/am';
import { clearSucceeded, installedPackages, pm } from '../../device/android/pm';
import { defineTool, InvalidCall, type ToolContext } from '../tool';

/**
 * Stopping an app and clearing its data, as a flow starts from a known state (`stop_app`, `clear_app`; Maestro's
 * stopApp / clearState). Written by a person in a flow, never offered to the model; clearing deletes the app's data
 * for good, so every call needs the person's yes.
 */

const AppArgsSchema = z.strictObject({
  app: z.string().min(1).max(200).describe('Package name (e.g. "com.amc.notes") or the app\'s label (e.g. "Notes").'),
});

async function packageOf(app: string, context: Pick<ToolContext, 'query'>): Promise<string> {
  const resolution = resolveApp(app, await installedPackages((command) => context.query(command)));
  if ('error' in resolution) throw new InvalidCall(resolution.error);
  return resolution.package;
}

export const stopApp = defineTool({
  name: 'stop_app',
  schema: AppArgsSchema,
  description: 'Stop an app (force-stop), so its next launch starts afresh.',
  title: 'Stop an app',
  aim: 'none',
  offeredTo: [],
  effects: { target: 'phone', verb: 'stops' },
  async run(args, context) {
    await context.send(am.forceStop(await packageOf(args.app, context)));
    return undefined;
  },
});

export const clearApp = defineTool({
  name: 'clear_app',
  schema: AppArgsSchema,
  description: "Clear an app's data (as after a fresh install): its accounts, files and settings are deleted.",
  title: 'Clear an app\'s data',
  aim: 'none',
  offeredTo: [],
  effects: { target: 'phone', verb: 'clears the data of', alwaysSensitive: true },
  async run(args, context) {
    const pkg = await packageOf(args.app, context);
    const said = (await context.query(pm.clear(pkg))).trim();
    if (!clearSucceeded(said)) throw new AdbError(`${pkg}'s data could not be cleared (${said || 'no answer'}).`, 'command-failed');
    return undefined;
  },
});
