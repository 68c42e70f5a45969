import type { TaskRecord } from '../../../shared/task';
import type { EventHub } from '../../ipc/event-hub';
import type { MethodHandlers } from '../../ipc/router';
import { renderTaskReport, reportFileName } from '../../storage/html-report';
import type { TaskStore } from '../../storage/task-store';
import { wordsFor } from '../../../shared/i18n/translate';

export function historyHandlers(store: TaskStore, events: Pick<EventHub, 'publish'>): MethodHandlers {
  const find = async (id: string): Promise<TaskRecord> => {
    const record = await store.get(id);
    if (!record) throw new Error(`No task "${id}" in history (it may have been deleted).`);
    return record;
  };
  return {
    'history.list': () => store.list(),
    'history.get': ({ id }) => find(id),
    'history.delete': async ({ id }) => {
      const deleted = await store.delete(id);
      if (deleted) events.publish('history.changed', { id, change: 'deleted' });
      return { id, deleted };
    },
    'history.exportJson': async ({ id }) => {
      const record = await find(id);
      return { fileName: reportFileName(record, 'json'), mediaType: 'application/json', text: `${JSON.stringify(record, null, 2)}\n` };
    },
    'history.exportHtml': async ({ id, language }) => {
      const record = await find(id);
      return { fileName: reportFileName(record, 'html'), mediaType: 'text/html', text: renderTaskReport(record, wordsFor(language ?? 'en')) };
    },
  };
}
