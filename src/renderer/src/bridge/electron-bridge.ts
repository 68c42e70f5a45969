import type { EventName, EventPayload, MethodName, MethodOutput, RpcResult } from '../../../shared/contract';
import { BridgeError, type Bridge } from './bridge';

/** Shape of `window.amc`, exposed by the preload (src/preload/api.ts). */
export interface PreloadGlobal {
  /** Electron's locale, passed by the shell. */
  readonly locale: string | null;
  call(method: string, input: unknown): Promise<RpcResult<unknown>>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  onFrame(listener: (meta: never, bytes: Uint8Array) => void): () => void;
}

export function createElectronBridge(api: PreloadGlobal): Bridge {
  return {
    transport: 'electron',
    async call<M extends MethodName>(method: M, input: unknown) {
      const result = await api.call(method, input);
      if (!result.ok) throw new BridgeError(result.error);
      return result.value as MethodOutput<M>;
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
      return api.on(event, (payload) => listener(payload as EventPayload<E>));
    },
    onFrame: (listener) => api.onFrame(listener as never),
    onConnectionChange: () => () => undefined,
  };
}
