import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { AppNoteSchema, type AppNote, type NoteEdit } from '../../shared/app-notes';
import { saidList, say, type Said, type Saying } from '../../shared/said';
import { jsonListFile } from './json-list-file';

/**
 * Notes per app, in one JSON file beside the task history (`<home>/storage/app-notes.json`), replaced atomically on
 * every change (readers see the old file or the new one, never half). A file that cannot be read is never
 * overwritten: every change is refused with a plain reason until the person fixes or deletes it, and tasks go on
 * without notes.
 */
export interface NotesStore {
  readonly file: string;
  /** Every note, newest first. A damaged file throws NotesFileError. */
  list(): Promise<AppNote[]>;
  /** The notes of one app (package), newest first. */
  notesFor(app: string): Promise<AppNote[]>;
  /**
   * Keeps what task `taskId` taught: one note per app. A note learned earlier for the same goal in the same app is
   * replaced; one the person edited is kept as the person left it, and the new route is not added.
   */
  keep(taskId: string, routes: readonly { app: string; goal: string; route: string }[]): Promise<AppNote[]>;
  /** The person's change to a note's goal and route; NotesError when there is no such note. */
  edit(change: NoteEdit): Promise<AppNote>;
  /** Deletes a note; false when there was none with this id. */
  remove(id: string): Promise<boolean>;
  /** Removes every note task `taskId` taught (the person marked that run as wrong); returns them. */
  forgetTask(taskId: string): Promise<AppNote[]>;
}

/** The notes file exists but cannot be used; it is left as it is. */
export class NotesFileError extends Error {
  override name = 'NotesFileError';
  readonly said: Said;
  constructor({ text, said }: Saying) {
    super(text);
    this.said = said;
  }
}

/** A change that cannot apply (no such note); nothing was written. */
export class NotesError extends Error {
  override name = 'NotesError';
}

export const NOTES_FILE = path.join('storage', 'app-notes.json');

/**
 * Bounds on what is kept: past `maxNotes` the oldest learned notes go first (the person's edits last), and a file
 * larger than `maxFileBytes` is not read at all (500 notes take about 150 KB).
 */
export const NOTES_LIMITS: NotesLimits = { maxNotes: 1000, maxFileBytes: 4 * 1024 * 1024 };

export interface NotesLimits {
  maxNotes: number;
  maxFileBytes: number;
}

/** Goals that differ only in case, spacing or closing punctuation are the same goal. */
const sameGoal = (a: string, b: string): boolean => {
  const plain = (goal: string) => goal.toLowerCase().replace(/\s+/g, ' ').replace(/[\s.!?]+$/, '').trim();
  return plain(a) === plain(b);
};

const newestFirst = (notes: readonly AppNote[]): AppNote[] => [...notes].sort((a, b) => b.createdAt - a.createdAt);

/** Past the cap, learned notes go before edited ones, oldest first. */
function withinCap(notes: AppNote[], maxNotes: number): AppNote[] {
  if (notes.length <= maxNotes) return notes;
  const dropOrder = [...notes].sort((a, b) => Number(a.editedAt !== null) - Number(b.editedAt !== null) || a.createdAt - b.createdAt);
  const dropped = new Set(dropOrder.slice(0, notes.length - maxNotes));
  return notes.filter((note) => !dropped.has(note));
}

export function createNotesStore(home: string, options: { now?: () => number; limits?: NotesLimits } = {}): NotesStore {
  const file = path.join(home, NOTES_FILE);
  const now = options.now ?? Date.now;
  const limits = options.limits ?? NOTES_LIMITS;
  const stored = jsonListFile<AppNote>({
    file,
    field: 'notes',
    item: AppNoteSchema,
    maxFileBytes: limits.maxFileBytes,
    kind: say('storedFile.notesKind'),
    damaged: (why) =>
      new NotesFileError({
        text: `The notes file ${file} ${why.text}; fix or delete it. It was not changed, and tasks run without notes until then.`,
        said: { code: 'storedFile.notesDamaged', values: { file, whySaid: saidList([why.said]) } },
      }),
    cap: (notes) => withinCap(notes, limits.maxNotes),
  });
  const read = stored.read;
  const change = <T>(apply: (notes: AppNote[]) => { notes: AppNote[]; result: T }): Promise<T> =>
    stored.change((items) => {
      const { notes, result } = apply(items);
      return { items: notes, result };
    });

  return {
    file,
    list: async () => newestFirst(await read()),
    notesFor: async (app) => newestFirst((await read()).filter((note) => note.app === app)),
    keep: (taskId, routes) =>
      change((notes) => {
        const kept: AppNote[] = [];
        for (const route of routes) {
          const same = notes.findIndex((note) => note.app === route.app && sameGoal(note.goal, route.goal));
          if (same >= 0 && notes[same]!.editedAt !== null) continue;
          const note: AppNote = { id: randomUUID(), ...route, taskId, createdAt: now(), editedAt: null };
          if (same >= 0) notes.splice(same, 1);
          notes.push(note);
          kept.push(note);
        }
        return { notes, result: kept };
      }),
    edit: (edit) =>
      change((notes) => {
        const index = notes.findIndex((note) => note.id === edit.id);
        if (index < 0) throw new NotesError(`There is no note "${edit.id}" (it may have been deleted).`);
        const note: AppNote = { ...notes[index]!, goal: edit.goal, route: edit.route, editedAt: now() };
        notes[index] = note;
        return { notes, result: note };
      }),
    remove: (id) =>
      change((notes) => {
        const rest = notes.filter((note) => note.id !== id);
        return { notes: rest, result: rest.length < notes.length };
      }),
    forgetTask: (taskId) =>
      change((notes) => ({ notes: notes.filter((note) => note.taskId !== taskId), result: notes.filter((note) => note.taskId === taskId) })),
  };
}
