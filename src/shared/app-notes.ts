import { z } from 'zod';
import { SaidSchema } from './said';
import { schemaMessage } from './schema-message';

/**
 * Notes per app: after a successful run, how its goal was reached in one app ("Turn off Wi-Fi" → "Settings >
 * Network & internet > Wi-Fi"), derived in code from the task record. The planner receives the notes of the
 * app in front as hints; the person sees, edits and deletes them in Settings, and marking a run as wrong removes
 * the notes it taught.
 */

/** Longest goal and route a note keeps (a longer route is shortened when learned; an edit beyond is refused). */
export const NOTE_LIMITS = { goalChars: 300, routeChars: 400, packageChars: 255 } as const;

/** A note id (also a safe word in a command line): letters, digits, `-`. */
const NoteIdSchema = z.string().max(64).regex(/^[A-Za-z0-9-]{1,64}$/, schemaMessage('schema.noteId'));

export const AppNoteSchema = z.object({
  id: NoteIdSchema,
  /** The foreground app's package the route was taken in, e.g. `com.android.settings`. */
  app: z.string().min(1).max(NOTE_LIMITS.packageChars),
  /** The goal of the run that taught it (or as the person edited it). */
  goal: z.string().min(1).max(NOTE_LIMITS.goalChars),
  /** The way there: the names of what was opened and tapped, joined by " > ". */
  route: z.string().min(1).max(NOTE_LIMITS.routeChars),
  /** The task that taught it; null once nothing ties it to a run (kept for notes written by hand). */
  taskId: z.string().min(1).max(200).nullable(),
  createdAt: z.number().int().nonnegative(),
  /** When the person last edited it; null: as learned. */
  editedAt: z.number().int().nonnegative().nullable(),
});
export type AppNote = z.infer<typeof AppNoteSchema>;

/** The separator between the steps of a route, as people read it. */
export const ROUTE_SEPARATOR = ' > ';

/** One line a person reads: `Turn off Wi-Fi: Settings > Network & internet > Wi-Fi`. */
export const noteLine = (note: Pick<AppNote, 'goal' | 'route'>): string => `${note.goal}: ${note.route}`;

/** A person's change to a note: both texts trimmed, neither empty. */
export const NoteEditSchema = z
  .object({
    id: NoteIdSchema,
    goal: z.string().trim().min(1, schemaMessage('schema.noteGoalEmpty')).max(NOTE_LIMITS.goalChars),
    route: z.string().trim().min(1, schemaMessage('schema.noteRouteEmpty')).max(NOTE_LIMITS.routeChars),
  })
  .strict();
export type NoteEdit = z.infer<typeof NoteEditSchema>;

export const NoteIdInputSchema = z.object({ id: NoteIdSchema }).strict();

/** The notes as Settings lists them, newest first; `problem` says (in plain words) why the notes file cannot be read. */
export const NoteListingSchema = z.object({ notes: z.array(AppNoteSchema), problem: z.string().nullable(), problemSaid: SaidSchema.optional() });
export type NoteListing = z.infer<typeof NoteListingSchema>;
