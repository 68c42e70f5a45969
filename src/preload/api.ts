import type { IpcRenderer } from 'electron';
import {
  ipcChannel,
  isEventName,
  isMethodName,
  type EventName,
  type FrameMeta,
  type RpcResult,
} from '../shared/contract';

/** What the preload exposes as `window.amc`. Mirrors the contract; nothing else crosses the bridge. */
export interface PreloadApi {
  call(method: string, input: unknown): Promise<RpcResult<unknown>>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  onFrame(listener: (meta: FrameMeta, bytes: Uint8Array) => void): () => void;
}

type IpcLike = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

export function buildPreloadApi(ipc: IpcLike): PreloadApi {
  return {
    call(method, input) {
      if (!isMethodName(method)) {
        return Promise.resolve({ ok: false, error: { code: 'unknown_method', message: `Unknown method "${String(method)}".` } });
      }
      return ipc.invoke(ipcChannel.method(method), input) as Promise<RpcResult<unknown>>;
    },
    on(event, listener) {
      if (!isEventName(event)) throw new Error(`Unknown event "${String(event)}".`);
      const channel = ipcChannel.event(event as EventName);
      const forward = (_event: unknown, payload: unknown) => listener(payload);
      ipc.on(channel, forward);
      return () => ipc.removeListener(channel, forward);
    },
    onFrame(listener) {
      const forward = (_event: unknown, meta: FrameMeta, bytes: Uint8Array) => listener(meta, bytes);
      ipc.on(ipcChannel.frame, forward);
      return () => ipc.removeListener(ipcChannel.frame, forward);
    },
  };
}
