import { parentPort } from 'node:worker_threads';
import { readTaskFile, type TaskFileLimits, type TaskFileRead } from './task-file';

/** The history worker's entry: reads and folds task files off the app's main thread (see task-loader.ts). */
export interface LoadRequest {
  id: number;
  file: string;
  taskId: string;
  limits: TaskFileLimits;
}

export type LoadReply = { id: number; result: TaskFileRead } | { id: number; error: string; code?: string };

parentPort?.on('message', (request: LoadRequest) => {
  readTaskFile(request.file, request.taskId, request.limits).then(
    (result) => parentPort?.postMessage({ id: request.id, result } satisfies LoadReply),
    (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error), ...(code && { code }) } satisfies LoadReply);
    },
  );
});
