// The running app follows schedules.json when another process (`amc schedule add|remove`) changes it.
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Calls `changed` (at most once per burst of file events) whenever the file is replaced or written; null when the folder cannot be watched. */
export function watchScheduleFile(file: string, changed: () => void): { close(): void } | null {
  let watcher: FSWatcher;
  try {
    watcher = watch(path.dirname(file), { persistent: false });
  } catch {
    return null;
  }
  let pending: NodeJS.Timeout | null = null;
  const name = path.basename(file);
  watcher.on('change', (_event, changedName) => {
    // An atomic write lands as a rename of a temporary sibling onto the file: both names count.
    if (changedName && !String(changedName).startsWith(name)) return;
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      changed();
    }, 100);
    pending.unref();
  });
  watcher.on('error', () => watcher.close());
  return {
    close() {
      if (pending) clearTimeout(pending);
      watcher.close();
    },
  };
}
