import { appProcess, SYSTEM_PROCESSES, type ProcessInfo } from '../system-processes';
import { failure, output, type CommandHandler } from '../shell/interpreter';
import type { PhoneServices } from './context';
import { findPackage } from './packages';

/** `ps` and `pidof` in toybox's formats, over the core daemons and the running apps. */

export function runningProcesses(phone: PhoneServices): ProcessInfo[] {
  const apps = phone.ui.processes().map(({ pkg, pid }) => appProcess(pkg, pid, findPackage(phone, pkg)?.uid ?? 10199));
  return [...SYSTEM_PROCESSES, ...apps, ...phone.helpers.list()].sort((a, b) => a.pid - b.pid);
}

/** The shell running the command and `ps` itself, as a real `ps -A` lists them. */
function shellProcesses(): ProcessInfo[] {
  return [
    { user: 'shell', pid: 7310, ppid: 455, vszKb: 1095212, rssKb: 3608, wchan: 'do_wait', state: 'S', name: 'sh' },
    { user: 'shell', pid: 7311, ppid: 7310, vszKb: 1106508, rssKb: 4012, wchan: '0', state: 'R', name: 'ps' },
  ];
}

// toybox ps: USER %-12s, PID %5s, PPID %5s, VSZ %7s, RSS %6s, WCHAN %-16s, ADDR %4s, S, NAME.
function psLine(process: ProcessInfo): string {
  const wchan = process.state === 'R' ? '0' : process.wchan;
  return `${process.user.padEnd(12)} ${String(process.pid).padStart(5)} ${String(process.ppid).padStart(5)} ${String(process.vszKb).padStart(7)} ${String(process.rssKb).padStart(6)} ${wchan.slice(0, 16).padEnd(16)} ${'0'.padStart(4)} ${process.state} ${process.name}\n`;
}

const PS_HEADER = 'USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME\n';

const PS_HELP = `usage: ps [-AadefLlnwZ] [-gG GROUP,] [-k FIELD,] [-o FIELD,] [-p PID,] [-t TTY,] [-uU USER,]

List processes.

Which processes to show (-gGuUpPt selections may be comma separated lists):

-A  All                            -a  Has terminal not session leader
-d  All but session leaders        -e  Synonym for -A
-g  In GROUPs                      -G  In real GROUPs (before sgid)
-p  PIDs (--pid)                   -P  Parent PIDs (--ppid)
-s  In session IDs                 -t  Attached to selected TTYs
-T  Show threads also              -u  Owned by selected USERs
-U  Real USERs (before suid)
`;

export function psCommand(phone: PhoneServices): CommandHandler {
  return ({ args }) => {
    let all = false;
    const pids = new Set<number>();
    const names: string[] = [];
    for (let index = 0; index < args.length; index++) {
      const arg = args[index] as string;
      if (arg === '--help') return output(PS_HELP);
      if (arg === '-A' || arg === '-e') all = true;
      else if (arg === '-p') for (const pid of (args[++index] ?? '').split(',')) pids.add(Number(pid));
      else if (arg.startsWith('-')) {
        const unknown = [...arg.slice(1)].find((flag) => !'AeflwZT'.includes(flag));
        if (unknown) return failure(`ps: Unknown option '${unknown}' (see "ps --help")\n`, 1);
      } else names.push(arg);
    }
    let processes = [...runningProcesses(phone), ...shellProcesses()];
    if (pids.size > 0) processes = processes.filter((process) => pids.has(process.pid));
    else if (names.length > 0) processes = processes.filter((process) => names.includes(process.name));
    // Without -A, toybox lists only the processes of the calling terminal: the shell and ps.
    else if (!all) processes = shellProcesses();
    return output(PS_HEADER + processes.map(psLine).join(''), '', processes.length > 0 || pids.size + names.length === 0 ? 0 : 1);
  };
}

export function pidofCommand(phone: PhoneServices): CommandHandler {
  return ({ args }) => {
    const pids = runningProcesses(phone)
      .filter((process) => args.includes(process.name))
      .map((process) => process.pid)
      .sort((a, b) => b - a);
    return pids.length > 0 ? output(`${pids.join(' ')}\n`) : output('', '', 1);
  };
}
