import os from 'node:os';
import { appName, appVersion } from '../../shared/app-info';
import type { MethodHandlers } from '../ipc/router';

export const appHandlers = (): MethodHandlers => ({
  'app.info': (_input, context) => ({
    name: appName,
    version: appVersion,
    transport: context.transport,
    platform: `${os.platform()}-${os.arch()}`,
  }),
  'app.ping': (input) => ({ nonce: input.nonce, serverTime: Date.now() }),
});
