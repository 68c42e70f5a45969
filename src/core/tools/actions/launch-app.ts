import { z } from 'zod';
import { AdbError } from '../../device/errors';
import { resolveApp } from '../app-resolver';
import { monkey, monkeyLaunchFailure } from '../../device/android/monkey';
import { installedPackages } from '../../device/android/pm';
import { defineTool, InvalidCall } from '../tool';

export const LaunchAppArgsSchema = z.strictObject({
  app: z
    .string()
    .min(1)
    .max(200)
    .describe('Package name (e.g. "com.android.settings") or the app\'s label as shown on the home screen (e.g. "Settings").'),
});

export const launchApp = defineTool({
  name: 'launch_app',
  schema: LaunchAppArgsSchema,
  description: 'Open an app by package name or by its label, from any screen.',
  title: 'Open an app',
  aim: 'none',
  offeredTo: ['model', 'agent'],
  effects: {
    target: 'phone',
    verifies: 'app-in-foreground',
    async opensApp(args, phone) {
      const resolution = resolveApp(args.app, await installedPackages((command) => phone.query(command)));
      if ('error' in resolution) throw new InvalidCall(resolution.error);
      return resolution.package;
    },
  },
  async run(_args, context) {
    const app = context.openedApp;
    if (!app) throw new InvalidCall('launch_app found no app to open.');
    const failure = monkeyLaunchFailure(await context.query(monkey.launch(app)));
    if (failure !== undefined) throw new AdbError(`${app} has no launcher activity to open (${failure}).`, 'command-failed');
    return undefined;
  },
});
