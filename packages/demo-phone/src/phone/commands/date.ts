import { failure, output, type CommandHandler } from '../shell/interpreter';

/** toybox `date` in UTC (the phone's time zone): the default format, or `+FORMAT` with strftime fields and `%N`. */

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DEFAULT_FORMAT = '%a %b %e %H:%M:%S %Z %Y';

const pad = (value: number, width = 2, fill = '0'): string => String(value).padStart(width, fill);

function field(now: Date, letter: string, width: number | undefined): string | undefined {
  const hours = now.getUTCHours();
  switch (letter) {
    case 'Y': return String(now.getUTCFullYear());
    case 'y': return pad(now.getUTCFullYear() % 100);
    case 'm': return pad(now.getUTCMonth() + 1);
    case 'd': return pad(now.getUTCDate());
    case 'e': return pad(now.getUTCDate(), 2, ' ');
    case 'H': return pad(hours);
    case 'I': return pad(hours % 12 === 0 ? 12 : hours % 12);
    case 'M': return pad(now.getUTCMinutes());
    case 'S': return pad(now.getUTCSeconds());
    case 'p': return hours < 12 ? 'AM' : 'PM';
    case 'a': return DAYS[now.getUTCDay()]!.slice(0, 3);
    case 'A': return DAYS[now.getUTCDay()]!;
    case 'b': case 'h': return MONTHS[now.getUTCMonth()]!.slice(0, 3);
    case 'B': return MONTHS[now.getUTCMonth()]!;
    case 'j': return pad(Math.floor((now.getTime() - Date.UTC(now.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3);
    case 'u': return String(now.getUTCDay() === 0 ? 7 : now.getUTCDay());
    case 'w': return String(now.getUTCDay());
    case 's': return String(Math.floor(now.getTime() / 1000));
    // Nanoseconds; a width keeps the leading digits (`%3N` gives milliseconds).
    case 'N': return pad(now.getUTCMilliseconds() * 1_000_000, 9).slice(0, width ?? 9);
    case 'Z': return 'UTC';
    case 'z': return '+0000';
    case 'T': return `${pad(hours)}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())}`;
    case 'D': return `${pad(now.getUTCMonth() + 1)}/${pad(now.getUTCDate())}/${pad(now.getUTCFullYear() % 100)}`;
    case 'F': return `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())}`;
    case 'n': return '\n';
    case 't': return '\t';
    case '%': return '%';
    default: return undefined;
  }
}

export function formatDate(now: Date, format: string): string {
  return format.replace(/%(\d*)([A-Za-z%])/g, (whole, width: string, letter: string) => field(now, letter, width ? Number(width) : undefined) ?? whole);
}

export const dateCommand: CommandHandler = ({ args }) => {
  const operands = args.filter((arg) => arg !== '-u');
  const format = operands.find((arg) => arg.startsWith('+'));
  const other = operands.find((arg) => !arg.startsWith('+'));
  // Setting the clock needs root.
  if (other !== undefined) return failure(`date: cannot set date: Operation not permitted\n`, 1);
  return output(`${formatDate(new Date(), format ? format.slice(1) : DEFAULT_FORMAT)}\n`);
};
