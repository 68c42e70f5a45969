// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { HistoryPanel } from '../../src/renderer/src/components/history/HistoryPanel';
import { useHistoryStore } from '../../src/renderer/src/store/history-store';
import { FakeBridge } from './fake-bridge';

beforeEach(() => useHistoryStore.setState(useHistoryStore.getInitialState(), true));
afterEach(cleanup);

describe('history panel', () => {
  it('Scenario: Damaged history files are shown with their name and what to do', () => {
    useHistoryStore.getState().setListing({
      tasks: [],
      damaged: [
        {
          fileName: 'broken.jsonl',
          problem: 'it does not start with a task.started line, so it is not a task record',
          action: 'Move or delete /home/me/.config/amc/storage/tasks/broken.jsonl; it was left untouched.',
        },
      ],
    });
    render(
      <BridgeContext.Provider value={new FakeBridge({})}>
        <HistoryPanel />
      </BridgeContext.Provider>,
    );
    const notice = screen.getByRole('status', { name: 'Damaged history files' });
    expect(notice.textContent).toContain('One history file could not be read');
    const item = within(notice).getByRole('listitem');
    expect(item.textContent).toBe(
      'broken.jsonl: it does not start with a task.started line, so it is not a task record. Move or delete /home/me/.config/amc/storage/tasks/broken.jsonl; it was left untouched.',
    );
    expect(screen.getByTestId('history-empty')).toBeTruthy();
  });
});
