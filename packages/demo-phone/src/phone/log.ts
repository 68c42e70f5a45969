/** The phone's main log buffer (what `logcat` reads): a bounded ring of entries plus live listeners. */

export type LogPriority = 'V' | 'D' | 'I' | 'W' | 'E' | 'F';

export interface LogEntry {
  timeMs: number;
  pid: number;
  tid: number;
  priority: LogPriority;
  tag: string;
  message: string;
}

const CAPACITY = 2000;

export class PhoneLog {
  private entries: LogEntry[] = [];
  private readonly listeners = new Set<(entry: LogEntry) => void>();

  add(entry: Omit<LogEntry, 'timeMs' | 'tid'> & { tid?: number }): void {
    const full: LogEntry = { timeMs: Date.now(), tid: entry.pid, ...entry };
    this.entries.push(full);
    if (this.entries.length > CAPACITY) this.entries.splice(0, this.entries.length - CAPACITY);
    for (const listener of this.listeners) listener(full);
  }

  all(): readonly LogEntry[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }

  /** Calls `listener` for every new entry until the returned function is called. */
  follow(listener: (entry: LogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
