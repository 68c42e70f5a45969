// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { SettingsDrawer } from '../../src/renderer/src/components/settings/SettingsDrawer';
import { SettingsForm } from '../../src/renderer/src/components/settings/SettingsForm';
import { useAppStore } from '../../src/renderer/src/store/app-store';
import { useSettingsStore } from '../../src/renderer/src/store/settings-store';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSecretStore } from '../../src/core/storage/settings-store';
import { routedApp, type RoutedApp } from './router-bridge';
import { revealField } from './settings-visibility';
import { IncompleteNote } from '../../src/renderer/src/components/settings/IncompleteNote';

const apps: RoutedApp[] = [];

/** A real app (router, SettingsService, settings.json) behind the form, in its own data folder. */
async function settingsBackend(options: { env?: NodeJS.ProcessEnv; settingsFile?: string } = {}) {
  let home: string | undefined;
  if (options.settingsFile !== undefined) {
    home = await mkdtemp(path.join(os.tmpdir(), 'amc-form-'));
    await writeFile(path.join(home, 'settings.json'), options.settingsFile);
  }
  const routed = await routedApp({ ...(options.env && { env: options.env }), ...(home && { home }) });
  apps.push(routed);
  const stored = async () => (await routed.app.call('settings.get', {})).settings;
  const secretValues = async () => createSecretStore(routed.app.home).load();
  return { bridge: routed.bridge, stored, secretValues };
}

async function renderForm(backend: Awaited<ReturnType<typeof settingsBackend>>) {
  useSettingsStore.getState().setScreen(await backend.bridge.call('settings.get', {}));
  return render(
    <BridgeContext.Provider value={backend.bridge}>
      <SettingsForm />
    </BridgeContext.Provider>,
  );
}

beforeEach(() => useSettingsStore.setState(useSettingsStore.getInitialState()));
afterEach(async () => {
  cleanup();
  for (const routed of apps.splice(0)) await routed.close();
});

describe('settings form', () => {
  it('Scenario: An invalid setting shows its reason next to the field as you type', async () => {
    const backend = await settingsBackend();
    await renderForm(backend);
    const maxSteps = screen.getByLabelText('Max steps per task');
    fireEvent.change(maxSteps, { target: { value: '9000' } });
    const problem = await screen.findByText(/Too big|500/);
    expect(problem.closest('[data-field]')?.getAttribute('data-field')).toBe('aiPlanner.maxSteps');
    expect(maxSteps.getAttribute('aria-invalid')).toBe('true');
    expect(backend.bridge.callsOf('settings.validate').at(-1)).toEqual({ patch: { aiPlanner: { maxSteps: 9000 } } });
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(maxSteps, { target: { value: 'ten' } });
    expect(await screen.findByText('enter a whole number from 1 to 500')).toBeTruthy();

    revealField('openai.baseURL');
    const url = screen.getByLabelText('OpenAI-compatible base URL');
    fireEvent.change(url, { target: { value: 'localhost:11434' } });
    await waitFor(() => expect(within(url.closest('[data-field]') as HTMLElement).getByRole('alert').textContent).toMatch(/URL|Invalid/));
  });

  it('Scenario: A valid change is saved and the form reflects what main stored', async () => {
    const backend = await settingsBackend();
    await renderForm(backend);
    fireEvent.change(screen.getByLabelText('Max steps per task'), { target: { value: '12' } });
    fireEvent.click(screen.getByLabelText('Use the AI planner'));
    fireEvent.change(screen.getByLabelText('Transport'), { target: { value: 'direct' } });
    fireEvent.change(screen.getByLabelText('Extended thinking budget (tokens)'), { target: { value: '2048' } });
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    expect(screen.getByTestId('settings-status').textContent).toBe('4 unsaved changes');
    fireEvent.click(save);
    await screen.findByText('Saved. The next task uses these settings.');
    expect(backend.bridge.callsOf('settings.update')).toEqual([
      { patch: { aiPlanner: { enabled: true, transport: 'direct', thinkingBudgetTokens: 2048, maxSteps: 12 } } },
    ]);
    expect((await backend.stored()).aiPlanner).toMatchObject({ enabled: true, maxSteps: 12, thinkingBudgetTokens: 2048 });
    expect(save.disabled).toBe(true);

    // Emptying the thinking budget turns thinking off (null), it is not an error.
    fireEvent.change(screen.getByLabelText('Extended thinking budget (tokens)'), { target: { value: '' } });
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(async () => expect((await backend.stored()).aiPlanner.thinkingBudgetTokens).toBeNull());
  });

  it('Scenario: API keys are write-only: the form shows only set or not set', async () => {
    const backend = await settingsBackend();
    await renderForm(backend);
    revealField('secrets.ANTHROPIC_API_KEY');
    expect(screen.getByTestId('secret-state-ANTHROPIC_API_KEY').textContent).toBe('not set');
    const key = screen.getByLabelText(/^Anthropic API key/) as HTMLInputElement;
    expect(key.type).toBe('password');
    fireEvent.change(key, { target: { value: 'sk-ant-test-123' } });
    fireEvent.click(within(key.closest('[data-field]') as HTMLElement).getByRole('button', { name: 'Set Anthropic API key' }));
    await waitFor(() => expect(screen.getByTestId('secret-state-ANTHROPIC_API_KEY').textContent).toBe('set'));
    expect((await backend.secretValues()).ANTHROPIC_API_KEY).toBe('sk-ant-test-123');
    expect(key.value).toBe('');
    expect(document.body.innerHTML).not.toContain('sk-ant-test-123');
    expect(JSON.stringify(useSettingsStore.getState())).not.toContain('sk-ant-test-123');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Clear Anthropic API key' })));
    await waitFor(() => expect(screen.getByTestId('secret-state-ANTHROPIC_API_KEY').textContent).toBe('not set'));
    expect((await backend.secretValues()).ANTHROPIC_API_KEY).toBeUndefined();
  });

  it('Scenario: Environment overrides are shown per field', async () => {
    const backend = await settingsBackend({ env: { AI_PLANNER_MODEL: 'gpt-5.4', OPENAI_API_KEY: 'sk-openai-from-env' } });
    await renderForm(backend);
    revealField('secrets.OPENAI_API_KEY');
    const model = screen.getByLabelText('Model').closest('[data-field]') as HTMLElement;
    expect(within(model).getByTestId('override-note').textContent).toBe('Overridden by AI_PLANNER_MODEL (in effect: gpt-5.4)');
    const openaiKey = screen.getByLabelText(/^OpenAI API key/).closest('[data-field]') as HTMLElement;
    expect(within(openaiKey).getByTestId('override-note').textContent).toBe('Overridden by OPENAI_API_KEY');
    expect(screen.getAllByTestId('override-note')).toHaveLength(2);
  });

  it('Scenario: A problem with the settings file itself is shown next to Save', async () => {
    const backend = await settingsBackend({ settingsFile: '{"aiPlanner": ' });
    await renderForm(backend);
    fireEvent.change(screen.getByLabelText('Max steps per task'), { target: { value: '12' } });
    expect((await screen.findByTestId('settings-form-problems')).textContent).toMatch(/settings\.json/);
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('Scenario: Escape closes the settings wherever the focus is', async () => {
    const backend = await settingsBackend();
    useSettingsStore.getState().setScreen(await backend.bridge.call('settings.get', {}));
    useAppStore.setState({ settingsOpen: true });
    render(
      <BridgeContext.Provider value={backend.bridge}>
        <button type="button">outside</button>
        <SettingsDrawer />
      </BridgeContext.Provider>,
    );
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeTruthy();
    screen.getByRole('button', { name: 'outside' }).focus();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull();
    expect(useAppStore.getState().settingsOpen).toBe(false);
  });

  const shownFields = () => [...document.querySelectorAll('[data-field]')].map((box) => box.getAttribute('data-field'));

  it('Scenario: Settings shows only the fields the chosen planner, provider and transport use', async () => {
    await renderForm(await settingsBackend());
    // Off (the default): nothing of the AI planner; what every task and the phone's helpers use stays.
    expect(shownFields()).toEqual([
      'interface.language', 'aiPlanner.enabled', 'aiPlanner.appNotes', 'aiPlanner.maxSteps', 'budget.maxMinutes', 'supervision.confirmation', 'perception.sceneTokenBudget',
      'adb.host', 'adb.port', 'helpers.videoMirror', 'helpers.scrcpyServerPath', 'helpers.yadbPath', 'helpers.download', 'typing.method',
      'fleet.deviceGroups', 'fleet.jobsMayPreApprove', 'fleet.jobsUsePlanCache', 'secrets.AMC_FLEET_REDIS',
    ]);
    fireEvent.click(screen.getByLabelText('Use the AI planner'));
    // On, cloud proxy (the default transport): the control plane's fields, no provider keys.
    expect(shownFields()).toEqual([
      'interface.language', 'aiPlanner.enabled', 'aiPlanner.provider', 'aiPlanner.model', 'aiPlanner.transport', 'aiPlanner.appNotes', 'aiPlanner.reuseRuns',
      'controlPlane.url', 'secrets.CONTROL_PLANE_TOKEN',
      'aiPlanner.timeoutSeconds', 'aiPlanner.maxSteps',
      'budget.maxTokens', 'budget.maxCostCents', 'budget.maxMinutes', 'budget.priceTable',
      'supervision.confirmation', 'supervision.loopWarnAfter', 'supervision.loopStopAfter', 'supervision.standingInstructions',
      'aiPlanner.sendScreenshot', 'aiPlanner.screenshotLongEdge', 'perception.sceneTokenBudget', 'adb.host', 'adb.port',
      'helpers.videoMirror', 'helpers.scrcpyServerPath', 'helpers.yadbPath', 'helpers.download', 'typing.method',
      'fleet.deviceGroups', 'fleet.jobsMayPreApprove', 'fleet.jobsUsePlanCache', 'secrets.AMC_FLEET_REDIS',
    ]);
    fireEvent.change(screen.getByLabelText('Transport'), { target: { value: 'direct' } });
    expect(shownFields()).toContain('secrets.ANTHROPIC_API_KEY');
    expect(shownFields()).toContain('anthropic.baseURL');
    expect(shownFields()).toContain('aiPlanner.thinkingBudgetTokens');
    expect(shownFields()).not.toContain('controlPlane.url');
    expect(shownFields()).not.toContain('secrets.OPENAI_API_KEY');
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'openai' } });
    expect(shownFields()).toContain('secrets.OPENAI_API_KEY');
    expect(shownFields()).toContain('openai.baseURL');
    expect(shownFields()).not.toContain('secrets.ANTHROPIC_API_KEY');
    // Extended thinking is Anthropic's only.
    expect(shownFields()).not.toContain('aiPlanner.thinkingBudgetTokens');
  });

  it('Scenario: Settings hints follow the selection before it is saved', async () => {
    await renderForm(await settingsBackend());
    const help = (path: string) => document.querySelector(`[data-field="${path}"] .field-help`)?.textContent;
    expect(help('aiPlanner.enabled')).toMatch(/^Off: /);
    fireEvent.click(screen.getByLabelText('Use the AI planner'));
    expect(help('aiPlanner.enabled')).toMatch(/^On: /);
    expect(help('aiPlanner.transport')).toMatch(/cloud proxy/i);
    fireEvent.change(screen.getByLabelText('Transport'), { target: { value: 'direct' } });
    expect(help('aiPlanner.transport')).toMatch(/called from this computer/);
    expect((screen.getByLabelText('Model') as HTMLInputElement).placeholder).toMatch(/^claude-/);
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'openai' } });
    expect((screen.getByLabelText('Model') as HTMLInputElement).placeholder).toMatch(/^gpt-/);
  });

  it('Scenario: An enabled AI planner that cannot run is saved but marked incomplete', async () => {
    const backend = await settingsBackend();
    await renderForm(backend);
    render(<IncompleteNote />);
    fireEvent.click(screen.getByLabelText('Use the AI planner'));
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await screen.findByText('Saved. The next task uses these settings.');
    expect((await backend.stored()).aiPlanner.enabled).toBe(true);
    const items = within(screen.getByTestId('setup-problems')).getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual(['Control-plane URL is empty (Settings → Cloud control plane)', 'Control-plane token is not set (Settings → Cloud control plane)']);
    expect(screen.getByTestId('goal-incomplete').textContent).toContain('AI planner incomplete: Control-plane URL is empty, Control-plane token is not set');
    // With an unsaved edit the connection test tries what is typed, and says so.
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'claude-x' } });
    expect((within(screen.getByTestId('test-connection')).getByRole('button', { name: 'Test connection to the cloud proxy' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByTestId('test-connection').textContent).toContain('Tests what you typed, not saved yet.');
  });

  it('Scenario: Each provider and the cloud proxy have their own Test connection next to their fields', async () => {
    const backend = await settingsBackend();
    await renderForm(backend);
    const save = async () => {
      const button = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
      await waitFor(() => expect(button.disabled).toBe(false));
      fireEvent.click(button);
      await screen.findByText('Saved. The next task uses these settings.', undefined, { timeout: 5_000 });
    };
    /** The one Test connection shown, which section holds it, and what it answered for that provider or transport. */
    const testShown = async (name: string) => {
      const [box, ...others] = screen.getAllByTestId('test-connection');
      expect(others).toEqual([]);
      fireEvent.click(within(box!).getByRole('button', { name: `Test connection to ${name}` }));
      const answer = await within(box!).findByTestId('connection-result', undefined, { timeout: 5_000 });
      return { section: box!.closest('fieldset')?.getAttribute('data-section'), call: backend.bridge.callsOf('settings.testConnection').at(-1), answer: answer.textContent };
    };
    expect(screen.queryByTestId('test-connection')).toBeNull();

    fireEvent.click(screen.getByLabelText('Use the AI planner'));
    await save();
    const proxy = await testShown('the cloud proxy');
    expect(proxy).toMatchObject({ section: 'Cloud control plane', call: { transport: 'cloud-proxy' } });
    expect(proxy.answer).toMatch(/Control-plane URL/);

    fireEvent.change(screen.getByLabelText('Transport'), { target: { value: 'direct' } });
    await save();
    const anthropic = await testShown('Anthropic');
    expect(anthropic).toMatchObject({ section: 'Direct access', call: { transport: 'direct', provider: 'anthropic' } });
    expect(anthropic.answer).toMatch(/Anthropic API key/);
    // The answer stays with the button that asked: another provider's starts blank.
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'openai' } });
    await save();
    expect(screen.queryByTestId('connection-result')).toBeNull();
    const openai = await testShown('OpenAI');
    expect(openai).toMatchObject({ section: 'Direct access', call: { transport: 'direct', provider: 'openai' } });
    expect(openai.answer).toMatch(/OpenAI API key/);
  });
});
