import { z } from 'zod';
import { AppNoteSchema, NoteEditSchema, NoteIdInputSchema, NoteListingSchema } from '../app-notes';
import { defineEvents, defineMethods, NoInput } from './define';

export const notesMethods = defineMethods({
  /** Every note, newest first, with the reason when the notes file cannot be read. */
  'notes.list': { input: NoInput, output: NoteListingSchema },
  /** The person's new wording of a note's goal and route. */
  'notes.update': { input: NoteEditSchema, output: AppNoteSchema },
  'notes.delete': { input: NoteIdInputSchema, output: z.object({ id: z.string(), deleted: z.boolean() }) },
  /** The person marks a finished run as wrong: every note it taught is removed. */
  'notes.markRunWrong': {
    input: z.object({ taskId: z.string().trim().min(1).max(200) }).strict(),
    output: z.object({ taskId: z.string(), removed: z.array(AppNoteSchema) }),
  },
});

export const notesEvents = defineEvents({
  /** Notes were learned, edited or removed: the list should be fetched again. */
  'notes.changed': z.object({ change: z.enum(['learned', 'edited', 'deleted']) }),
});
