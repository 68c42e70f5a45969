import { z } from 'zod';
import { shellQuote } from '../input-text';
import { defineTool, InvalidCall } from '../tool';

export const OpenUrlArgsSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'url must be an http:// or https:// address' })
    .max(2000)
    .describe('The web address to open, e.g. "https://example.com/page".'),
});

export const openUrl = defineTool({
  name: 'open_url',
  schema: OpenUrlArgsSchema,
  description: 'Open a web address in the phone\'s browser (or the app that handles it).',
  actsOnPhone: true,
  // The model reaches pages through the apps on screen; an agent driving the phone directly may jump to an address.
  offeredToModel: false,
  sensitiveByDefault: false,
  async run(args, context) {
    // A browser is an app like any other: a task limited to some apps does not leave them for a web page.
    if (context.allowedApps) throw new InvalidCall(`open_url leaves this task's allowed apps (${context.allowedApps.join(', ')}); the address was not opened.`);
    await context.send(`am start -a android.intent.action.VIEW -d ${shellQuote(args.url)}`);
    return undefined;
  },
});
