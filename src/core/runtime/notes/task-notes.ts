import type { Scene } from '../../../shared/scene';
import type { TaskRecord } from '../../../shared/task';
import type { PlanInput } from '../planner';
import type { PlanCachePort } from '../plan-cache-port';
import type { AppNotesPort } from './app-notes-port';
import { learnRoutes } from './learn-route';
import { pickNotes } from './pick-notes';

/** What a task learns and reads: the plan cache and the notes per app, each optional, with the task's own choice. */
export interface TaskLearning {
  appNotes?: AppNotesPort | undefined;
  planCache?: PlanCachePort | undefined;
  /** Whether this task's policies keep and read notes per app. */
  notesOn: boolean;
}

/** Keeps what a completed task taught, before its end is reported; notes that cannot be written never fail the task. */
export async function learnFrom(finished: TaskRecord, learning: TaskLearning): Promise<void> {
  await learning.planCache?.consider(finished).catch(() => undefined);
  const notes = learning.appNotes;
  if (!notes || !learning.notesOn) return;
  const routes = learnRoutes(finished);
  if (routes.length) await notes.keep(finished.id, routes).catch(() => undefined);
}

/** The notes of the app in front for this turn's prompt; unreadable notes leave the turn without them. */
export async function notesFor(scene: Scene | null, goal: string, learning: TaskLearning): Promise<PlanInput['appNotes']> {
  const notes = learning.appNotes;
  const app = scene?.screen.package;
  if (!notes || !app || !learning.notesOn) return undefined;
  const kept = await notes.notesFor(app).catch(() => []);
  const picked = pickNotes(kept, goal);
  return picked.notes.length ? { app, notes: picked.notes, leftOut: picked.leftOut } : undefined;
}
