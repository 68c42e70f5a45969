import type { CliCommand } from '../command';
import { parseCommandArgs, parsePort } from '../args';
import { terminalWords } from '../terminal-words';

export const serveCommand: CliCommand = {
  name: 'serve',
  usage: 'amc serve [--port N]',
  async run(args, io) {
    const { values } = parseCommandArgs(args, { port: { type: 'string' } });
    const port = parsePort(values.port, '--port') ?? 0;
    const { startWebApp } = await import('../../app/start-web-app');
    const app = await startWebApp({ port });
    const { t } = terminalWords();
    io.out(t('cli:serve.serving', { url: app.url }));
    io.out(t('cli:serve.open'));
    await app.closed;
    return 0;
  },
};
