import type { EventName, EventPayload, FrameMeta } from '../../shared/contract';

export type EventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;
export type FrameListener = (meta: FrameMeta, bytes: Uint8Array) => void;

/** Fans main's per-topic events and binary frames out to every attached window, whatever its transport. */
export class EventHub {
  private readonly listeners = new Set<EventListener>();
  private readonly frameListeners = new Set<FrameListener>();

  publish<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) listener(name, payload);
  }

  publishFrame(meta: FrameMeta, bytes: Uint8Array): void {
    for (const listener of this.frameListeners) listener(meta, bytes);
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  subscribeFrames(listener: FrameListener): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  get frameSubscriberCount(): number {
    return this.frameListeners.size;
  }
}
