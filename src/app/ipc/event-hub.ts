import type { EventName, EventPayload, FrameMeta } from '../../shared/contract';

export type EventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;
export type FrameListener = (meta: FrameMeta, bytes: Uint8Array) => void;
/** A frame receiver that can say it is still busy with earlier frames (the producer then skips a capture). */
export interface FrameSubscription {
  busy?: () => boolean;
}

/** Fans main's per-topic events and binary frames out to every attached window, whatever its transport. */
export class EventHub {
  private readonly listeners = new Set<EventListener>();
  private readonly frameListeners = new Map<FrameListener, FrameSubscription>();

  publish<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) listener(name, payload);
  }

  publishFrame(meta: FrameMeta, bytes: Uint8Array): void {
    for (const listener of this.frameListeners.keys()) listener(meta, bytes);
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  subscribeFrames(listener: FrameListener, subscription: FrameSubscription = {}): () => void {
    this.frameListeners.set(listener, subscription);
    return () => this.frameListeners.delete(listener);
  }

  get frameSubscriberCount(): number {
    return this.frameListeners.size;
  }

  /** True when every frame receiver is still busy: a new frame now would only be dropped. */
  get framesBusy(): boolean {
    if (this.frameListeners.size === 0) return false;
    for (const subscription of this.frameListeners.values()) if (!subscription.busy?.()) return false;
    return true;
  }
}
