/** One structured log line. Callers pass ids, numbers and codes only: never keys, tokens or request bodies. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/** JSON lines to a sink (stdout by default), one object per event, with a timestamp and a level. */
export function createJsonLogger(write: (line: string) => void = (line) => process.stdout.write(line), base: LogFields = {}): Logger {
  const emit = (level: string, msg: string, fields: LogFields = {}) => {
    write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...base, ...fields })}\n`);
  };
  return {
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
  };
}

/**
 * A line sink that hands `write` everything one event-loop turn logged, in one piece: one write (a system call on
 * a pipe) per busy turn instead of one per request. What is pending is written when the process exits normally;
 * a process killed outright loses at most that one turn's lines.
 */
export function batchedLines(write: (text: string) => void): (line: string) => void {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    write(text);
  };
  process.on('exit', flush);
  return (line) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(line);
  };
}
