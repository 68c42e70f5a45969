import { createElement, type ReactElement, type ReactNode } from 'react';
import type { Bridge } from '../../src/renderer/src/bridge';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { BridgeError } from '../../src/renderer/src/bridge';
import type { EventName, EventPayload, FrameMeta, MethodInput, MethodName, MethodOutput } from '../../src/shared/contract';

type Handler<M extends MethodName> = (input: MethodInput<M>) => MethodOutput<M> | Promise<MethodOutput<M>>;
export type Handlers = { [M in MethodName]?: Handler<M> };

/**
 * An in-memory Bridge for component tests: methods answer from the given handlers (a missing one fails like
 * main's `unavailable`), events are pushed with `emit`, and every call is recorded.
 */
export class FakeBridge implements Bridge {
  readonly transport = 'web' as const;
  readonly calls: Array<{ method: MethodName; input: unknown }> = [];
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly frameListeners = new Set<(meta: FrameMeta, bytes: Uint8Array) => void>();
  private readonly connectionListeners = new Set<(connected: boolean) => void>();

  constructor(private readonly handlers: Handlers) {}

  async call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
    this.calls.push({ method, input });
    const handler = this.handlers[method] as Handler<M> | undefined;
    if (!handler) throw new BridgeError({ code: 'unavailable', message: `"${method}" is not available in this app build.` });
    return handler(input);
  }

  callsOf(method: MethodName): unknown[] {
    return this.calls.filter((call) => call.method === method).map((call) => call.input);
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener as (payload: unknown) => void);
    return () => set.delete(listener as (payload: unknown) => void);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.listeners.get(event)?.forEach((listener) => listener(payload));
  }

  onFrame(listener: (meta: FrameMeta, bytes: Uint8Array) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  emitFrame(meta: FrameMeta, bytes: Uint8Array): void {
    this.frameListeners.forEach((listener) => listener(meta, bytes));
  }

  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  /** The transport dropping (false) or coming back (true). */
  emitConnection(connected: boolean): void {
    this.connectionListeners.forEach((listener) => listener(connected));
  }
}

/** A wrapper for `render` giving components an in-memory Bridge (a method without a handler fails as unavailable). */
export function withFakeBridge(handlers: Handlers = {}): (props: { children: ReactNode }) => ReactElement {
  const bridge = new FakeBridge(handlers);
  return ({ children }) => createElement(BridgeContext.Provider, { value: bridge }, children);
}
