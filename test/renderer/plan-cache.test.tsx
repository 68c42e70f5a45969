// @vitest-environment jsdom
// "Reused runs" in Settings, through the real app's router and plan cache file: listed with goal, app and time, and
// forgotten with the person's confirmation.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { PlanCacheSection } from '../../src/renderer/src/components/notes/PlanCacheSection';
import { createPlanCacheStore } from '../../src/core/storage/plan-cache-store';
import { routedApp, type RoutedApp } from './router-bridge';
import { ConfirmDialog } from '../../src/renderer/src/components/ConfirmDialog';

let routed: RoutedApp | undefined;
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await routed?.close();
  routed = undefined;
});

describe('reused runs in Settings', () => {
  it('Scenario: Settings lists the reused runs and forgets one', async () => {
    routed = await routedApp();
    await createPlanCacheStore(routed.app.home).learn({ goal: 'Switch the phone to the dark theme.', taskId: 'task-7', app: 'com.android.settings', learnedAt: 1_700_000_000_000 });
    render(
      <BridgeContext.Provider value={routed.bridge}>
        <PlanCacheSection />
        <ConfirmDialog />
      </BridgeContext.Provider>,
    );
    const section = screen.getByRole('region', { name: 'Reused runs' });
    const entry = await within(section).findByTestId('plan-cache-entry');
    expect(entry.textContent).toContain('Switch the phone to the dark theme.');
    expect(entry.textContent).toContain('com.android.settings');

    // Cancelled: nothing is forgotten.
    const forget = within(section).getByRole('button', { name: 'Forget the run of "Switch the phone to the dark theme."' });
    fireEvent.click(forget);
    const asked = await screen.findByTestId('confirm-dialog');
    expect(asked.textContent).toContain('Forget the run of "Switch the phone to the dark theme."? The model will plan this goal again.');
    fireEvent.click(within(asked).getByText('Cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    expect((await routed.bridge.call('planCache.list', {})).entries).toHaveLength(1);
    fireEvent.click(forget);
    fireEvent.click(within(await screen.findByTestId('confirm-dialog')).getByText('Forget'));
    await waitFor(() => expect(within(section).getByText('No runs are reused yet.')).toBeTruthy());
    expect(await routed.bridge.call('planCache.list', {})).toEqual({ entries: [], problem: null });
  });
});
