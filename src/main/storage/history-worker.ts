import { parentPort } from 'node:worker_threads';
import { readTaskFile, type TaskFileLimits, type TaskFileRead } from './task-file';

/** The history worker's entry: reads and folds task files off the app's main thread (see task-loader.ts). */
export interface LoadRequest {
  id: number;
  file: string;
  taskId: string;
  limits: TaskFileLimits;
}

/**
 * The result travels as JSON text: one string crosses threads as a copy of its bytes, and parsing it is several
 * times quicker for the main thread than taking the same record as a structured clone (the bench's stall row).
 */
export type LoadReply = { id: number; json: string } | { id: number; error: string; code?: string };

parentPort?.on('message', (request: LoadRequest) => {
  readTaskFile(request.file, request.taskId, request.limits).then(
    (result: TaskFileRead) => parentPort?.postMessage({ id: request.id, json: JSON.stringify(result) } satisfies LoadReply),
    (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error), ...(code && { code }) } satisfies LoadReply);
    },
  );
});
