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
  /** The system's locale as Electron reports it (e.g. `zh-CN`), or null when the shell did not pass one. */
  readonly locale: string | null;
  call(method: string, input: unknown): Promise<RpcResult<unknown>>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  onFrame(listener: (meta: FrameMeta, bytes: Uint8Array) => void): () => void;
}

type IpcLike = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

/** The value of the shell's `--amc-locale=` argument (the prefix is the shell's LOCALE_ARGUMENT). */
export function localeFromArguments(argv: readonly string[]): string | null {
  const value = argv.find((argument) => argument.startsWith('--amc-locale='))?.slice('--amc-locale='.length).trim();
  return value ? value : null;
}

export function buildPreloadApi(ipc: IpcLike, argv: readonly string[] = []): PreloadApi {
  return {
    locale: localeFromArguments(argv),
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
