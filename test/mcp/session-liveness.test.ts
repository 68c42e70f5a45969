// When an MCP session's client counts as gone or idle, from its HTTP traffic alone (the rules behind the
// integration tests in mcp-http-sessions.test.ts), on a fake clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionLiveness } from '../../src/mcp/session-liveness';

let gone: number;
let idle: boolean[];
let liveness: SessionLiveness;

beforeEach(() => {
  vi.useFakeTimers();
  gone = 0;
  idle = [];
  liveness = new SessionLiveness({ idleTimeoutMs: 60_000, onGone: () => (gone += 1), onIdle: (connected) => idle.push(connected) });
});

afterEach(() => {
  liveness.stop();
  vi.useRealTimers();
});

describe('MCP session liveness', () => {
  it('a closed stream with nothing in flight is a client gone; a request in flight defers it to its end', () => {
    liveness.track('request')();
    const stream = liveness.track('stream');
    stream();
    expect(gone).toBe(1);

    const again = liveness.track('stream');
    const request = liveness.track('request');
    again();
    expect(gone).toBe(1);
    request();
    expect(gone).toBe(2);
  });

  it('a refused GET (no stream) and a request after the stream closed are no disconnect', () => {
    liveness.track('stream')(false);
    liveness.track('request')();
    expect(gone).toBe(0);
    liveness.track('stream')();
    expect(gone).toBe(1);
    // The client still posts without listening: judged by the idle timeout only.
    liveness.track('request')();
    expect(gone).toBe(1);
  });

  it('idle: a connected client only loses its phones, and the session ends once its stream closes too', () => {
    liveness.track('request')();
    const stream = liveness.track('stream');
    vi.advanceTimersByTime(59_999);
    expect(idle).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(idle).toEqual([true]);
    stream();
    vi.advanceTimersByTime(0);
    expect(idle).toEqual([true, false]);
  });

  it('no idle timeout while a request is in flight; the clock restarts when it ends', () => {
    const request = liveness.track('request');
    vi.advanceTimersByTime(120_000);
    expect(idle).toEqual([]);
    request();
    vi.advanceTimersByTime(59_999);
    expect(idle).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(idle).toEqual([false]);
  });
});
