import { waitForAbort } from '../latency';
import type { LogEntry, LogPriority } from '../log';
import { failure, output, type CommandHandler } from '../shell/interpreter';
import type { PhoneServices } from './context';

/** `logcat`: dump (`-d`, `-t N`), clear (`-c`), or stream until the client goes away; `-v` formats and TAG:PRIORITY filters. */

const PRIORITIES: LogPriority[] = ['V', 'D', 'I', 'W', 'E', 'F'];
const FORMATS = new Set(['threadtime', 'brief', 'time', 'tag', 'process', 'raw', 'long', 'thread', 'printable', 'color', 'year', 'uid', 'epoch', 'monotonic', 'usec', 'UTC', 'zone']);

interface LogcatOptions {
  dump: boolean;
  clear: boolean;
  format: string;
  tail: number | undefined;
  filters: Array<{ tag: string; minimum: number }>;
  pid: number | undefined;
}

const two = (value: number): string => String(value).padStart(2, '0');

function formatEntry(entry: LogEntry, format: string): string {
  const time = new Date(entry.timeMs);
  const stamp = `${two(time.getUTCMonth() + 1)}-${two(time.getUTCDate())} ${two(time.getUTCHours())}:${two(time.getUTCMinutes())}:${two(time.getUTCSeconds())}.${String(time.getUTCMilliseconds()).padStart(3, '0')}`;
  const pid = String(entry.pid).padStart(5);
  switch (format) {
    case 'brief':
      return `${entry.priority}/${entry.tag.padEnd(8)}(${pid}): ${entry.message}\n`;
    case 'time':
      return `${stamp} ${entry.priority}/${entry.tag.padEnd(8)}(${pid}): ${entry.message}\n`;
    case 'tag':
      return `${entry.priority}/${entry.tag.padEnd(8)}: ${entry.message}\n`;
    case 'raw':
      return `${entry.message}\n`;
    default:
      return `${stamp} ${pid} ${String(entry.tid).padStart(5)} ${entry.priority} ${entry.tag.padEnd(8)}: ${entry.message}\n`;
  }
}

function parseOptions(args: string[]): LogcatOptions | string {
  const options: LogcatOptions = { dump: false, clear: false, format: 'threadtime', tail: undefined, filters: [], pid: undefined };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '-d') options.dump = true;
    else if (arg === '-c') options.clear = true;
    else if (arg === '-v' || arg.startsWith('--format=')) {
      const format = arg === '-v' ? (args[++index] ?? '') : arg.slice('--format='.length);
      if (!FORMATS.has(format)) return `Invalid parameter "${format}" to -v.\n`;
      if (!['color', 'year', 'uid', 'epoch', 'monotonic', 'usec', 'UTC', 'zone', 'printable'].includes(format)) options.format = format;
    } else if (arg === '-t' || arg === '-T') {
      const count = Number(args[++index]);
      if (!Number.isInteger(count) || count < 0) return `Invalid count "${args[index] ?? ''}" to -${arg.slice(1)}.\n`;
      options.tail = count;
      if (arg === '-t') options.dump = true;
    } else if (arg === '-b') index++;
    else if (arg.startsWith('--pid=')) options.pid = Number(arg.slice(6));
    else if (arg === '--pid') options.pid = Number(args[++index]);
    else if (arg === '-s') options.filters.push({ tag: '*', minimum: PRIORITIES.length });
    else if (arg.startsWith('-')) return `logcat: invalid option -- ${arg.replace(/^-+/, '')}\n`;
    else {
      const [tag = '', priority = 'V'] = arg.split(':');
      const minimum = priority === 'S' ? PRIORITIES.length : PRIORITIES.indexOf(priority as LogPriority);
      if (minimum < 0) return `Invalid filter expression '${arg}'\n`;
      options.filters.push({ tag, minimum });
    }
  }
  return options;
}

function matches(entry: LogEntry, options: LogcatOptions): boolean {
  if (options.pid !== undefined && entry.pid !== options.pid) return false;
  const rank = PRIORITIES.indexOf(entry.priority);
  const own = options.filters.find((filter) => filter.tag === entry.tag);
  if (own) return rank >= own.minimum;
  const wildcard = options.filters.find((filter) => filter.tag === '*');
  return rank >= (wildcard?.minimum ?? 0);
}

export function logcatCommand(phone: PhoneServices): CommandHandler {
  return async ({ args, signal, emit }) => {
    const options = parseOptions(args);
    if (typeof options === 'string') return failure(options, 1);
    if (options.clear) {
      phone.log.clear();
      return output();
    }
    let entries = phone.log.all().filter((entry) => matches(entry, options));
    if (options.tail !== undefined) entries = entries.slice(Math.max(0, entries.length - options.tail));
    const head = entries.length > 0 && options.tail === undefined ? '--------- beginning of main\n' : '';
    const text = head + entries.map((entry) => formatEntry(entry, options.format)).join('');
    if (options.dump) return output(text);
    await emit(text);
    const unfollow = phone.log.follow((entry) => {
      if (matches(entry, options)) void emit(formatEntry(entry, options.format));
    });
    try {
      return await waitForAbort(signal);
    } finally {
      unfollow();
    }
  };
}
