import type { CliCommand } from '../command';
import { parseCommandArgs, parsePort } from '../args';

export const serveCommand: CliCommand = {
  name: 'serve',
  usage: 'amc serve [--port N]',
  async run(args, io) {
    const { values } = parseCommandArgs(args, { port: { type: 'string' } });
    const port = parsePort(values.port, '--port') ?? 0;
    const { startWebApp } = await import('../../main/app/start-web-app');
    const app = await startWebApp({ port });
    io.out(`Agentic Mobile Control is serving at ${app.url}`);
    io.out('Open that address in a browser (it carries this launch\'s access token). Press Ctrl-C to stop.');
    await app.closed;
    return 0;
  },
};
