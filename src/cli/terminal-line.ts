import readline from 'node:readline';
import type { AskLine } from './terminal-supervisor';

/**
 * Lines typed at the terminal, read only while a question is open (the prompt goes to `output`). `close` lets
 * the process end: an open reader would keep it waiting for input. Ctrl-C at a prompt is `onInterrupt` (the
 * terminal is raw while reading, so no SIGINT reaches the process), the same stop as Ctrl-C at any other time.
 */
export function terminalLines(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, onInterrupt: () => void): { askLine: AskLine; close(): void } {
  let reader: readline.Interface | null = null;
  let ended = false;
  const open = () => {
    if (!reader) {
      reader = readline.createInterface({ input, output, terminal: true });
      reader.on('SIGINT', () => {
        output.write('\n');
        onInterrupt();
      });
      reader.once('close', () => {
        ended = true;
      });
    }
    return reader;
  };
  return {
    askLine: (prompt, signal) =>
      new Promise((resolve) => {
        if (ended || signal.aborted) return resolve(null);
        const lines = open();
        const settle = (line: string | null) => {
          lines.off('close', onClose);
          signal.removeEventListener('abort', onAbort);
          resolve(line);
        };
        const onClose = () => settle(null);
        const onAbort = () => settle(null);
        lines.once('close', onClose);
        signal.addEventListener('abort', onAbort, { once: true });
        lines.question(prompt, { signal }, (line) => settle(line));
      }),
    close: () => {
      reader?.close();
      reader = null;
    },
  };
}
