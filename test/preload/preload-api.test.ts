import { describe, expect, it, vi } from 'vitest';
import { buildPreloadApi } from '../../src/preload/api';
import { eventNames, ipcChannel, methodNames } from '../../src/shared/contract';

type Handler = (event: unknown, ...args: unknown[]) => void;

function fakeIpc() {
  const handlers = new Map<string, Set<Handler>>();
  return {
    invoke: vi.fn(async (channel: string, input: unknown) => ({ ok: true, value: { channel, input } })),
    on: vi.fn((channel: string, handler: Handler) => {
      const set = handlers.get(channel) ?? new Set<Handler>();
      set.add(handler);
      handlers.set(channel, set);
    }),
    removeListener: vi.fn((channel: string, handler: Handler) => handlers.get(channel)?.delete(handler)),
    emit(channel: string, ...args: unknown[]) {
      handlers.get(channel)?.forEach((h) => h({ sender: 'ipc-event-object' }, ...args));
    },
  };
}

describe('preload', () => {
  it('Scenario: Every contract method is forwarded to its channel', async () => {
    const ipc = fakeIpc();
    const api = buildPreloadApi(ipc as never);
    for (const method of methodNames) {
      const result = await api.call(method, { probe: method });
      expect(result).toEqual({ ok: true, value: { channel: ipcChannel.method(method), input: { probe: method } } });
    }
    expect(ipc.invoke).toHaveBeenCalledTimes(methodNames.length);
  });

  it('Scenario: Nothing else is exposed', async () => {
    const ipc = fakeIpc();
    const api = buildPreloadApi(ipc as never);
    expect(Object.keys(api).sort()).toEqual(['call', 'locale', 'on', 'onFrame']);
    const refused = await api.call('ipcRenderer.send', {});
    expect(refused).toEqual({ ok: false, error: { code: 'unknown_method', message: 'Unknown method "ipcRenderer.send".' } });
    expect(ipc.invoke).not.toHaveBeenCalled();
    expect(() => api.on('not.an.event', () => undefined)).toThrow('Unknown event');
  });

  it('Scenario: Listeners receive payloads, never the IPC event object', () => {
    const ipc = fakeIpc();
    const api = buildPreloadApi(ipc as never);
    const [eventName] = eventNames;
    const received: unknown[][] = [];
    const off = api.on(eventName!, (...args) => received.push(args));
    ipc.emit(ipcChannel.event(eventName!), { seq: 1 });
    const frames: unknown[][] = [];
    api.onFrame((...args) => frames.push(args));
    const bytes = new Uint8Array([1, 2, 3]);
    ipc.emit(ipcChannel.frame, { seq: 1 }, bytes);
    expect(received).toEqual([[{ seq: 1 }]]);
    expect(frames).toEqual([[{ seq: 1 }, bytes]]);
    off();
    ipc.emit(ipcChannel.event(eventName!), { seq: 2 });
    expect(received).toHaveLength(1);
  });
});
