// CPU time of processes by pid, from /proc (Linux): what each process of a service under test costs.
import { readdir, readFile } from 'node:fs/promises';

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system, all threads) the process has used so far, in ms; NaN once it is gone. */
export async function cpuMsOf(pid: number): Promise<number> {
  // Fields 14 and 15 of /proc/<pid>/stat (utime, stime) in clock ticks; the command name may contain spaces.
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!stat) return Number.NaN;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

export interface ProcessInfo {
  pid: number;
  /** The executable's short name, e.g. "node" or "redis-server". */
  command: string;
}

/** The direct children of a process. */
export async function childrenOf(pid: number): Promise<ProcessInfo[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const pids = new Set<number>();
  for (const task of tasks) {
    const listed = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
    for (const child of listed.split(' ').filter(Boolean)) pids.add(Number(child));
  }
  return Promise.all(
    [...pids].map(async (child) => ({ pid: child, command: (await readFile(`/proc/${child}/comm`, 'utf8').catch(() => '?')).trim() })),
  );
}

/** CPU ms of each pid at one moment, to subtract from a later reading. */
export async function cpuSnapshot(pids: readonly number[]): Promise<number[]> {
  return Promise.all(pids.map(cpuMsOf));
}
