// A Bridge for component tests that answers through a real app's router (contract validation, SettingsService,
// settings.json on disk), like the web host does; every call is recorded.
import { BridgeError } from '../../src/renderer/src/bridge';
import { methodNames } from '../../src/shared/contract';
import { startTestApp, removeHome, type TestApp } from '../app/app-fixture';
import { FakeBridge, type Handlers } from './fake-bridge';

export interface RoutedApp {
  app: TestApp;
  bridge: FakeBridge;
  close(): Promise<void>;
}

export async function routedApp(options: { env?: NodeJS.ProcessEnv; home?: string } = {}): Promise<RoutedApp> {
  const app = await startTestApp({ env: { PATH: process.env.PATH, ...options.env }, ...(options.home && { home: options.home }) });
  const forward = (method: (typeof methodNames)[number]) => async (input: unknown) => {
    const result = await app.app.router.call(method, input, { transport: 'web' });
    if (!result.ok) throw new BridgeError(result.error);
    return result.value;
  };
  const handlers = Object.fromEntries(methodNames.map((method) => [method, forward(method)])) as Handlers;
  const bridge = new FakeBridge(handlers);
  const unsubscribe = app.app.events.subscribe((name, payload) => bridge.emit(name, payload as never));
  return {
    app,
    bridge,
    async close() {
      unsubscribe();
      await app.close();
      await removeHome(app.home);
    },
  };
}
