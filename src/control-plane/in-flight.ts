import { setMaxListeners } from 'node:events';

/** Counts decisions in progress so shutdown can refuse new ones, wait for the rest, and abort them after a grace. */
export class InFlightDecisions {
  private count = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly shutdown = new AbortController();
  private drainingSince: number | null = null;

  /** `onChange` hears every new count (the in-flight gauge). */
  constructor(private readonly onChange: (size: number) => void = () => undefined) {
    // Every in-flight decision listens on the shutdown signal, so the default warning at 10 listeners is noise.
    setMaxListeners(0, this.shutdown.signal);
  }

  get size(): number {
    return this.count;
  }

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  /** Aborted when shutdown gives up waiting; decisions pass it on to the provider call. */
  get abortSignal(): AbortSignal {
    return this.shutdown.signal;
  }

  /** Registers one decision; call the returned function exactly once when it is answered. */
  begin(): () => void {
    this.count += 1;
    this.onChange(this.count);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count -= 1;
      this.onChange(this.count);
      if (this.count === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    };
  }

  startDraining(): void {
    this.drainingSince ??= Date.now();
  }

  /** Resolves once no decision is in flight. */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  abortAll(reason: Error): void {
    this.shutdown.abort(reason);
  }
}
