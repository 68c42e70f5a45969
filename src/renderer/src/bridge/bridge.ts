import type {
  EventName,
  EventPayload,
  FrameMeta,
  MethodInput,
  MethodName,
  MethodOutput,
  RpcError,
} from '../../../shared/contract';

/** The renderer's one way to reach main, whatever the transport (Electron preload or WebSocket). */
export interface Bridge {
  readonly transport: 'electron' | 'web';
  /** Resolves with the method's output; rejects with a BridgeError carrying main's typed error. */
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  onFrame(listener: (meta: FrameMeta, bytes: Uint8Array) => void): () => void;
  /** Connection state changes (the web transport can drop and reconnect). */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
}

export class BridgeError extends Error {
  override name = 'BridgeError';
  constructor(readonly rpcError: RpcError) {
    super(rpcError.message);
  }
}
