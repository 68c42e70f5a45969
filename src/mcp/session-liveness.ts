/** How long an MCP session over HTTP may go without a request before its phones are freed and it ends. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export interface LivenessOptions {
  idleTimeoutMs: number;
  /** The client's connection is gone: its standalone GET stream closed and no request is in flight. */
  onGone(): void;
  /** No request for `idleTimeoutMs`; `connected` while the client's GET stream is still open. */
  onIdle(connected: boolean): void;
}

/**
 * Whether an MCP session's client is still there, from its HTTP traffic alone: clients that go away without
 * DELETE (the SDK's `close()`, inspectors, proxies) only drop their connections. A client that never opened
 * the standalone GET stream is judged by the idle timeout only.
 */
export class SessionLiveness {
  private inFlight = 0;
  /** GETs whose responses are open: the standalone stream (at most one is served; a second gets 409). */
  private streams = 0;
  /** A stream was open and has closed since the client's last request began. */
  private sawStream = false;
  private timer: NodeJS.Timeout | undefined;
  private lastRequestAt = Date.now();
  private stopped = false;

  constructor(private readonly options: LivenessOptions) {
    this.arm();
  }

  /**
   * A request (POST, DELETE) or a GET for the standalone stream began; the returned function marks its response
   * closed, saying whether a GET was answered with a stream (a refused GET, e.g. 409 or 406, is no connection).
   */
  track(kind: 'request' | 'stream'): (streamed?: boolean) => void {
    if (kind === 'stream') this.streams += 1;
    else {
      this.inFlight += 1;
      clearTimeout(this.timer);
      // A request after its stream closed: the client is there, it just no longer listens (judged by the idle timeout).
      if (this.streams === 0) this.sawStream = false;
    }
    let ended = false;
    return (streamed = true) => {
      if (ended) return;
      ended = true;
      if (kind === 'stream') {
        this.streams -= 1;
        if (streamed) this.sawStream = true;
      } else this.inFlight -= 1;
      this.settle(kind);
    };
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private settle(kind: 'request' | 'stream'): void {
    if (this.stopped || this.inFlight > 0) return;
    if (this.sawStream && this.streams === 0) this.options.onGone();
    // A stream closing is no request: the idle clock keeps counting from the last one.
    if (kind === 'request') this.lastRequestAt = Date.now();
    this.arm();
  }

  private arm(): void {
    clearTimeout(this.timer);
    const left = Math.max(0, this.lastRequestAt + this.options.idleTimeoutMs - Date.now());
    this.timer = setTimeout(() => {
      if (!this.stopped && this.inFlight === 0) this.options.onIdle(this.streams > 0);
    }, left);
    this.timer.unref();
  }
}
