import { z } from 'zod';
import { AdbError } from '../../device/errors';
import { isAllowedApp, parsePackageList, resolveApp } from '../app-resolver';
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
  actsOnPhone: true,
  offeredToModel: true,
  sensitiveByDefault: false,
  async run(args, context) {
    const installed = parsePackageList(await context.query('pm list packages'));
    const resolution = resolveApp(args.app, installed);
    if ('error' in resolution) throw new InvalidCall(resolution.error);
    const allowed = context.allowedApps;
    if (allowed && !isAllowedApp(resolution.package, allowed, installed)) {
      throw new InvalidCall(`${resolution.package} is not among this task's allowed apps (${allowed.join(', ')}); it was not opened.`);
    }
    context.setOpenedApp(resolution.package);
    const output = await context.query(`monkey -p ${resolution.package} -c android.intent.category.LAUNCHER 1`);
    if (/no activities found|monkey aborted|error/i.test(output)) {
      throw new AdbError(`${resolution.package} has no launcher activity to open (${output.trim().split('\n').at(-1)}).`, 'command-failed');
    }
    return undefined;
  },
});
