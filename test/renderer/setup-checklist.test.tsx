// @vitest-environment jsdom
// The first-run checklist against a real app (router, SettingsService, settings.json) behind the real bridge: a
// newcomer with a provider key goes straight to the direct fields, while cloud proxy stays the saved default.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { SetupChecklist } from '../../src/renderer/src/components/SetupChecklist';
import { SettingsForm } from '../../src/renderer/src/components/settings/SettingsForm';
import { useAppStore } from '../../src/renderer/src/store/app-store';
import { useDevicesStore } from '../../src/renderer/src/store/devices-store';
import { useSettingsStore } from '../../src/renderer/src/store/settings-store';
import { routedApp, type RoutedApp } from './router-bridge';

let routed: RoutedApp | undefined;

beforeEach(() => {
  useSettingsStore.setState(useSettingsStore.getInitialState());
  useAppStore.setState({ settingsOpen: false });
  useDevicesStore.getState().setList({ devices: [], adbServer: '127.0.0.1:5037', problem: null });
});
afterEach(async () => {
  cleanup();
  await routed?.close();
  routed = undefined;
});

describe('first-run checklist', () => {
  it('Scenario: "I have an API key" opens Settings with the AI planner on and Transport set to Direct', async () => {
    routed = await routedApp({ env: {} });
    const shown = await routed.bridge.call('settings.get', {});
    // The seeds' default stays: cloud proxy, planner off.
    expect(shown.settings.aiPlanner).toMatchObject({ enabled: false, transport: 'cloud-proxy' });
    useSettingsStore.getState().setScreen(shown);
    render(
      <BridgeContext.Provider value={routed.bridge}>
        <SetupChecklist />
        <SettingsForm />
      </BridgeContext.Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'I have an API key' }));
    expect(useAppStore.getState().settingsOpen).toBe(true);
    expect((screen.getByLabelText('Use the AI planner') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Transport') as HTMLSelectElement).value).toBe('direct');
    // The key's field is there to paste into; nothing is saved until the person saves.
    expect(document.querySelector('[data-field="secrets.ANTHROPIC_API_KEY"]')).not.toBeNull();
    expect((await routed.bridge.call('settings.get', {})).settings.aiPlanner).toMatchObject({ enabled: false, transport: 'cloud-proxy' });
  });
});
