import { LAUNCHER_PACKAGE } from './apps/launcher';
import { SYSTEM_UI_PACKAGE } from './ui/system-ui';

/** The processes `ps` lists besides the running apps: Android 14's core daemons, with fixed pids. */

export interface ProcessInfo {
  user: string;
  pid: number;
  ppid: number;
  vszKb: number;
  rssKb: number;
  wchan: string;
  state: 'S' | 'R';
  name: string;
}

export const ZYGOTE_PID = 580;
export const SYSTEM_SERVER_PID = 612;

export const SYSTEM_PROCESSES: readonly ProcessInfo[] = [
  { user: 'root', pid: 1, ppid: 0, vszKb: 2101312, rssKb: 11960, wchan: 'do_epoll_wait', state: 'S', name: 'init' },
  { user: 'root', pid: 2, ppid: 0, vszKb: 0, rssKb: 0, wchan: 'kthreadd', state: 'S', name: '[kthreadd]' },
  { user: 'logd', pid: 318, ppid: 1, vszKb: 1214820, rssKb: 9120, wchan: 'do_epoll_wait', state: 'S', name: 'logd' },
  { user: 'system', pid: 352, ppid: 1, vszKb: 1153636, rssKb: 4480, wchan: 'binder_thread_read', state: 'S', name: 'servicemanager' },
  { user: 'system', pid: 401, ppid: 1, vszKb: 1327480, rssKb: 22164, wchan: 'do_epoll_wait', state: 'S', name: 'surfaceflinger' },
  { user: 'shell', pid: 455, ppid: 1, vszKb: 1128212, rssKb: 4172, wchan: 'do_epoll_wait', state: 'S', name: 'adbd' },
  { user: 'root', pid: ZYGOTE_PID, ppid: 1, vszKb: 4571628, rssKb: 98880, wchan: 'do_sys_poll', state: 'S', name: 'zygote64' },
  { user: 'system', pid: SYSTEM_SERVER_PID, ppid: ZYGOTE_PID, vszKb: 5214060, rssKb: 301432, wchan: 'do_epoll_wait', state: 'S', name: 'system_server' },
  { user: 'u0_a141', pid: 1054, ppid: ZYGOTE_PID, vszKb: 5012244, rssKb: 188516, wchan: 'do_epoll_wait', state: 'S', name: SYSTEM_UI_PACKAGE },
  { user: 'u0_a120', pid: 1410, ppid: ZYGOTE_PID, vszKb: 4870012, rssKb: 152208, wchan: 'do_epoll_wait', state: 'S', name: LAUNCHER_PACKAGE },
];

/** A running app's process. */
export function appProcess(pkg: string, pid: number, uid: number): ProcessInfo {
  return { user: `u0_a${uid - 10000}`, pid, ppid: ZYGOTE_PID, vszKb: 4812356, rssKb: 121744, wchan: 'do_epoll_wait', state: 'S', name: pkg };
}
