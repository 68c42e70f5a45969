import type { ProcessInfo } from './system-processes';

/** The adbd pid: helpers are started from adb's shell. */
const ADBD_PID = 455;
const FIRST_HELPER_PID = 8_201;

interface RunningHelper {
  info: ProcessInfo;
  stopper: AbortController;
}

/** A started helper: its pid, a signal aborted when it is killed, and `exit` once it is done. */
export interface HelperProcess {
  readonly pid: number;
  readonly signal: AbortSignal;
  exit(): void;
}

/**
 * Programs the shell user starts with `app_process` (scrcpy's server, yadb): `ps` lists them while they run and
 * `kill` stops them, so a client can check that it leaves no orphan behind.
 */
export class HelperProcessTable {
  private readonly running = new Map<number, RunningHelper>();
  private nextPid = FIRST_HELPER_PID;

  start(name: string): HelperProcess {
    const pid = this.nextPid++;
    const stopper = new AbortController();
    const info: ProcessInfo = { user: 'shell', pid, ppid: ADBD_PID, vszKb: 13_318_180, rssKb: 98_244, wchan: 'do_epoll_wait', state: 'S', name };
    this.running.set(pid, { info, stopper });
    return { pid, signal: stopper.signal, exit: () => this.running.delete(pid) };
  }

  list(): ProcessInfo[] {
    return [...this.running.values()].map((helper) => helper.info);
  }

  /** Stops the helper with `pid`; false when no helper has it. */
  kill(pid: number): boolean {
    const helper = this.running.get(pid);
    if (!helper) return false;
    helper.stopper.abort(new Error(`killed (pid ${pid})`));
    this.running.delete(pid);
    return true;
  }

  /** Stops every helper (a phone reset reboots it). */
  killAll(): void {
    for (const pid of [...this.running.keys()]) this.kill(pid);
  }
}
