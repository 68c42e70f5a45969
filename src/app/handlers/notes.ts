import type { EventHub } from '../ipc/event-hub';
import { saidOf } from '../../shared/said';
import type { MethodHandlers } from '../ipc/router';
import type { NotesStore } from '../../core/storage/notes-store';

export function notesHandlers(store: NotesStore, events: Pick<EventHub, 'publish'>): MethodHandlers {
  return {
    // A damaged file is shown as the listing's problem, so Settings can say what to do instead of failing.
    'notes.list': () => store.list().then((notes) => ({ notes, problem: null }), (error: Error) => ({ notes: [], problem: error.message, problemSaid: saidOf(error) })),
    'notes.update': async (change) => {
      const note = await store.edit(change);
      events.publish('notes.changed', { change: 'edited' });
      return note;
    },
    'notes.delete': async ({ id }) => {
      const deleted = await store.remove(id);
      if (deleted) events.publish('notes.changed', { change: 'deleted' });
      return { id, deleted };
    },
    'notes.markRunWrong': async ({ taskId }) => {
      const removed = await store.forgetTask(taskId);
      if (removed.length) events.publish('notes.changed', { change: 'deleted' });
      return { taskId, removed };
    },
  };
}
