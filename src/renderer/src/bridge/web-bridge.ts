import {
  decodeFrame,
  type EventName,
  type EventPayload,
  type FrameMeta,
  type MethodName,
  type MethodOutput,
  type RpcResult,
} from '../../../shared/contract';
import { currentWords } from '../i18n/language-store';
import { BridgeError, type Bridge } from './bridge';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

type ServerMessage =
  | { type: 'result'; id: number | null; result: RpcResult<unknown> }
  | { type: 'event'; name: string; payload: unknown };

const RECONNECT_DELAY_MS = 1000;

/** The WebSocket transport: requests carry ids, events and binary frames are pushed; it reconnects after a drop. */
export function createWebBridge(wsUrl: string): Bridge {
  const pending = new Map<number, Pending>();
  const eventListeners = new Map<string, Set<(payload: unknown) => void>>();
  const frameListeners = new Set<(meta: FrameMeta, bytes: Uint8Array) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  let nextId = 1;
  let socket: WebSocket;
  let opened: Promise<void>;

  const setConnected = (connected: boolean) => connectionListeners.forEach((l) => l(connected));

  const connect = () => {
    socket = new WebSocket(wsUrl);
    socket.binaryType = 'arraybuffer';
    opened = new Promise((resolve) => socket.addEventListener('open', () => resolve(), { once: true }));
    socket.addEventListener('open', () => setConnected(true));
    socket.addEventListener('message', (event) => {
      if (event.data instanceof ArrayBuffer) {
        const { meta, bytes } = decodeFrame(new Uint8Array(event.data));
        frameListeners.forEach((l) => l(meta, bytes));
        return;
      }
      const message = JSON.parse(String(event.data)) as ServerMessage;
      if (message.type === 'event') {
        eventListeners.get(message.name)?.forEach((l) => l(message.payload));
      } else if (message.id !== null) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (!waiter) return;
        if (message.result.ok) waiter.resolve(message.result.value);
        else waiter.reject(new BridgeError(message.result.error));
      }
    });
    socket.addEventListener('close', () => {
      setConnected(false);
      for (const [id, waiter] of pending) {
        waiter.reject(new BridgeError({ code: 'unavailable', message: currentWords().t('app:connection.droppedRetrying') }));
        pending.delete(id);
      }
      setTimeout(connect, RECONNECT_DELAY_MS);
    });
  };
  connect();

  return {
    transport: 'web',
    async call<M extends MethodName>(method: M, input: unknown) {
      await opened;
      const id = nextId++;
      const result = new Promise<unknown>((resolve, reject) => pending.set(id, { resolve, reject }));
      socket.send(JSON.stringify({ id, method, input }));
      return (await result) as MethodOutput<M>;
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
      const set = eventListeners.get(event) ?? new Set();
      eventListeners.set(event, set);
      const typed = listener as (payload: unknown) => void;
      set.add(typed);
      return () => set.delete(typed);
    },
    onFrame(listener) {
      frameListeners.add(listener);
      return () => frameListeners.delete(listener);
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
  };
}
