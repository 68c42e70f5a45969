import os from 'node:os';
import { appName, appVersion } from '../../shared/app-info';
import { EventHub } from '../ipc/event-hub';
import { createRouter, type MethodHandlers, type Router } from '../ipc/router';

export interface AppOptions {
  /** How often main proves it is alive to every window. */
  heartbeatMs?: number;
}

/** The running services behind every transport (Electron window, web host) and the CLI. */
export interface AppServices {
  router: Router;
  events: EventHub;
  close(): Promise<void>;
}

/** Composition root: builds the services once and exposes them through one router and one event hub. */
export async function createApp(options: AppOptions = {}): Promise<AppServices> {
  const events = new EventHub();
  const startedAt = Date.now();

  const handlers: MethodHandlers = {
    'app.info': (_input, context) => ({
      name: appName,
      version: appVersion,
      transport: context.transport,
      platform: `${os.platform()}-${os.arch()}`,
    }),
    'app.ping': (input) => ({ nonce: input.nonce, serverTime: Date.now() }),
  };

  let seq = 0;
  const heartbeat = setInterval(() => {
    events.publish('app.heartbeat', { seq: seq++, at: Date.now(), uptimeMs: Date.now() - startedAt });
  }, options.heartbeatMs ?? 2000);
  heartbeat.unref();

  return {
    router: createRouter(handlers),
    events,
    async close() {
      clearInterval(heartbeat);
    },
  };
}
