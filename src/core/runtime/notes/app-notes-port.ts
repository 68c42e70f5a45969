import type { AppNote } from '../../../shared/app-notes';
import type { LearnedRoute } from './learn-route';

/** Where the runner keeps and finds notes per app (the notes store, src/core/storage/notes-store.ts). */
export interface AppNotesPort {
  /** The notes kept for the app `app` (package); throws, in plain words, when the notes cannot be read. */
  notesFor(app: string): Promise<readonly AppNote[]>;
  /** Keeps what task `taskId` taught, one note per app (replacing an older note of the same goal in that app). */
  keep(taskId: string, routes: readonly LearnedRoute[]): Promise<unknown>;
}
