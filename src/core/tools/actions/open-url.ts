import { z } from 'zod';
import { am } from '../../device/android/am';
import { cmd, parseResolvedPackage } from '../../device/android/cmd';
import { defineTool, InvalidCall } from '../tool';

export const OpenUrlArgsSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'url must be an http:// or https:// address' })
    .max(2000)
    .describe('The web address to open, e.g. "https://example.com/page".'),
});

const VIEW = 'android.intent.action.VIEW';

export const openUrl = defineTool({
  name: 'open_url',
  schema: OpenUrlArgsSchema,
  description: "Open a web address in the phone's browser (or the app that handles it).",
  // The model reaches pages through the apps on screen; an agent driving the phone directly may jump to an address.
  title: 'Open a web address',
  aim: 'none',
  offeredTo: ['agent'],
  effects: {
    target: 'phone',
    verifies: 'app-in-foreground',
    // The app that will show the address, asked of the phone first: the allow-list holds for a browser like any app.
    async opensApp(args, phone) {
      const app = parseResolvedPackage(await phone.query(cmd.resolveActivity({ action: VIEW, data: args.url })));
      if (!app || app === 'android') throw new InvalidCall(`no app on the phone opens ${args.url} by itself (it has no default browser)`);
      return app;
    },
  },
  async run(args, context) {
    await context.send(am.start({ action: VIEW, data: args.url }));
    return undefined;
  },
});
