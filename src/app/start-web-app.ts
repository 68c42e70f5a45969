import { createApp, type AppOptions } from './create-app';
import { rendererBuildDir } from './paths';
import { startWebHost } from './web/web-host';
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface WebAppOptions extends AppOptions {
  port?: number;
  /** The page's access token; default a new one per launch. */
  token?: string;
  rendererDir?: string;
}

export interface RunningWebApp {
  url: string;
  origin: string;
  token: string;
  /** Resolves once the app has shut down (Ctrl-C, SIGTERM or close()). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** The app's services behind the web host: what `amc serve` and the no-Electron `npm start` run. */
export async function startWebApp(options: WebAppOptions = {}): Promise<RunningWebApp> {
  const rendererDir = options.rendererDir ?? rendererBuildDir();
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    throw new Error(`The UI is not built (${rendererDir} has no index.html). Run \`npm run build\` first.`);
  }
  const app = await createApp(options);
  const host = await startWebHost({ router: app.router, events: app.events, rendererDir, port: options.port, token: options.token });

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      process.off('SIGINT', close);
      process.off('SIGTERM', close);
      await host.close();
      await app.close();
      resolveClosed();
    })();
    return closing;
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  return { url: host.url, origin: host.origin, token: host.token, closed, close };
}
