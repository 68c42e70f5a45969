import type { TaskRecord } from '../../shared/task';
import type { EventHub } from '../ipc/event-hub';
import type { MethodHandlers } from '../ipc/router';
import { renderTaskReport, reportFileName } from '../../core/storage/html-report';
import type { TaskStore } from '../../core/storage/task-store';
import { wordsFor } from '../../shared/i18n/translate';
import { HISTORY_PAGE_TURNS } from '../../shared/contract/history';

const found = (id: string, record: TaskRecord | undefined): TaskRecord => {
  if (!record) throw new Error(`No task "${id}" in history (it may have been deleted).`);
  return record;
};

export function historyHandlers(store: TaskStore, events: Pick<EventHub, 'publish'>): MethodHandlers {
  /** The whole record, for what needs every turn (a download, a report); the window and MCP read pages. */
  const find = async (id: string): Promise<TaskRecord> => found(id, await store.get(id));
  return {
    'history.list': () => store.list(),
    'history.get': async ({ id }) => found(id, await store.page(id, { from: null, count: HISTORY_PAGE_TURNS })),
    'history.turns': async ({ id, from, count }) => {
      const { steps, page } = found(id, await store.page(id, { from, count }));
      // No page: the record is whole, so its turns start at the first.
      return { id, from: page?.from ?? 0, turnCount: page?.turnCount ?? steps.length, steps };
    },
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
