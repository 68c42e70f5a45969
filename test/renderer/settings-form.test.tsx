// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { SettingsDrawer } from '../../src/renderer/src/components/settings/SettingsDrawer';
import { SettingsForm } from '../../src/renderer/src/components/settings/SettingsForm';
import { useAppStore } from '../../src/renderer/src/store/app-store';
import { useSettingsStore } from '../../src/renderer/src/store/settings-store';
import type { SettingsDraft, SettingsProblem, SettingsScreen } from '../../src/shared/contract';
import { defaultSettings, mergeSettings, SettingsSchema, type SecretName, type Settings } from '../../src/shared/settings';
import { FakeBridge } from './fake-bridge';

/** Main's side of settings, reduced to what the form relies on: the shared schema decides validity. */
function settingsBackend(initial: Partial<SettingsScreen> = {}, brokenFile?: string) {
  let screenState: SettingsScreen = {
    settings: defaultSettings(),
    effective: defaultSettings(),
    secrets: { ANTHROPIC_API_KEY: 'not set', OPENAI_API_KEY: 'not set', CONTROL_PLANE_TOKEN: 'not set' },
    envOverrides: [],
    overriddenFields: {},
    folder: '/home/someone/.config/agentic-mobile-control',
    keyStorage: 'API keys are kept in secrets.json, readable only by you.',
    problem: null,
    ...initial,
  };
  const secretValues = new Map<SecretName, string>();
  const check = (patch: SettingsDraft): { settings?: Settings; problems: SettingsProblem[] } => {
    // Like main: a settings file that cannot be read blocks every save, reported for no field in particular.
    if (brokenFile) return { problems: [{ field: '(settings)', message: brokenFile }] };
    const parsed = SettingsSchema.safeParse(mergeSettings(screenState.settings, patch as never));
    if (parsed.success) return { settings: parsed.data, problems: [] };
    return { problems: parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })) };
  };
  const bridge = new FakeBridge({
    'settings.get': () => screenState,
    'settings.validate': ({ patch }) => {
      const { problems } = check(patch);
      return { valid: problems.length === 0, problems };
    },
    'settings.update': ({ patch }) => {
      const { settings, problems } = check(patch);
      if (!settings) return { saved: false, problems: problems as [SettingsProblem, ...SettingsProblem[]] };
      screenState = { ...screenState, settings, effective: settings };
      return { saved: true, view: screenState };
    },
    'settings.setSecret': ({ name, value }) => {
      if (value === null) secretValues.delete(name);
      else secretValues.set(name, value);
      screenState = { ...screenState, secrets: { ...screenState.secrets, [name]: value === null ? 'not set' : 'set' } };
      return screenState;
    },
  });
  return { bridge, secretValues, current: () => screenState };
}

async function renderForm(backend: ReturnType<typeof settingsBackend>) {
  useSettingsStore.getState().setScreen(await backend.bridge.call('settings.get', {}));
  return render(
    <BridgeContext.Provider value={backend.bridge}>
      <SettingsForm />
    </BridgeContext.Provider>,
  );
}

beforeEach(() => useSettingsStore.setState(useSettingsStore.getInitialState()));
afterEach(cleanup);

describe('settings form', () => {
  it('Scenario: An invalid setting shows its reason next to the field as you type', async () => {
    const backend = settingsBackend();
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

    const url = screen.getByLabelText('OpenAI-compatible base URL');
    fireEvent.change(url, { target: { value: 'localhost:11434' } });
    await waitFor(() => expect(within(url.closest('[data-field]') as HTMLElement).getByRole('alert').textContent).toMatch(/URL|Invalid/));
  });

  it('Scenario: A valid change is saved and the form reflects what main stored', async () => {
    const backend = settingsBackend();
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
    expect(backend.current().settings.aiPlanner).toMatchObject({ enabled: true, maxSteps: 12, thinkingBudgetTokens: 2048 });
    expect(save.disabled).toBe(true);

    // Emptying the thinking budget turns thinking off (null), it is not an error.
    fireEvent.change(screen.getByLabelText('Extended thinking budget (tokens)'), { target: { value: '' } });
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(backend.current().settings.aiPlanner.thinkingBudgetTokens).toBeNull());
  });

  it('Scenario: API keys are write-only: the form shows only set or not set', async () => {
    const backend = settingsBackend();
    await renderForm(backend);
    expect(screen.getByTestId('secret-state-ANTHROPIC_API_KEY').textContent).toBe('not set');
    const key = screen.getByLabelText(/^Anthropic API key/) as HTMLInputElement;
    expect(key.type).toBe('password');
    fireEvent.change(key, { target: { value: 'sk-ant-test-123' } });
    fireEvent.click(within(key.closest('[data-field]') as HTMLElement).getByRole('button', { name: 'Set Anthropic API key' }));
    await waitFor(() => expect(screen.getByTestId('secret-state-ANTHROPIC_API_KEY').textContent).toBe('set'));
    expect(backend.secretValues.get('ANTHROPIC_API_KEY')).toBe('sk-ant-test-123');
    expect(key.value).toBe('');
    expect(document.body.innerHTML).not.toContain('sk-ant-test-123');
    expect(JSON.stringify(useSettingsStore.getState())).not.toContain('sk-ant-test-123');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Clear Anthropic API key' })));
    await waitFor(() => expect(screen.getByTestId('secret-state-ANTHROPIC_API_KEY').textContent).toBe('not set'));
    expect(backend.secretValues.has('ANTHROPIC_API_KEY')).toBe(false);
  });

  it('Scenario: Environment overrides are shown per field', async () => {
    const effective = defaultSettings();
    effective.aiPlanner.model = 'gpt-5.4';
    const backend = settingsBackend({
      effective,
      envOverrides: ['AI_PLANNER_MODEL', 'OPENAI_API_KEY'],
      overriddenFields: { 'aiPlanner.model': 'AI_PLANNER_MODEL', 'secrets.OPENAI_API_KEY': 'OPENAI_API_KEY' },
    });
    await renderForm(backend);
    const model = screen.getByLabelText('Model').closest('[data-field]') as HTMLElement;
    expect(within(model).getByTestId('override-note').textContent).toBe('Overridden by AI_PLANNER_MODEL (in effect: gpt-5.4)');
    const openaiKey = screen.getByLabelText(/^OpenAI API key/).closest('[data-field]') as HTMLElement;
    expect(within(openaiKey).getByTestId('override-note').textContent).toBe('Overridden by OPENAI_API_KEY');
    expect(screen.getAllByTestId('override-note')).toHaveLength(2);
  });

  it('Scenario: A problem with the settings file itself is shown next to Save', async () => {
    const backend = settingsBackend({ problem: 'settings.json is not valid JSON; fix or delete it' }, 'settings.json is not valid JSON');
    await renderForm(backend);
    fireEvent.change(screen.getByLabelText('Max steps per task'), { target: { value: '12' } });
    expect((await screen.findByTestId('settings-form-problems')).textContent).toBe('settings.json is not valid JSON');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('Scenario: Escape closes the settings wherever the focus is', async () => {
    const backend = settingsBackend();
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
});
