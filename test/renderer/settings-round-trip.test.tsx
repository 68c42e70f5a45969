// @vitest-environment jsdom
// Every setting of the catalog, typed into the Settings form, goes through the real router into settings.json (or
// the secret store), comes back out of the configuration and reaches the options the planner's client is built
// from — for both providers. The tables below are keyed by every catalog path, so a new setting does not compile
// until this test says what to type for it and where it must arrive.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPlanner, clientOptions } from '../../src/core/runtime/build-planner';
import { aiPlannerSetup, applyTaskOverrides, createConfigSource, type RuntimeConfig } from '../../src/core/runtime/config';
import { createSecretStore } from '../../src/core/storage/settings-store';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { SETTINGS_FIELDS } from '../../src/renderer/src/components/settings/fields';
import { SettingsForm } from '../../src/renderer/src/components/settings/SettingsForm';
import { useSettingsStore } from '../../src/renderer/src/store/settings-store';
import type { Provider } from '../../src/shared/settings';
import { deviceGroupsOf } from '../../src/shared/device-groups';
import { SETTINGS_CATALOG, type CatalogEntry } from '../../src/shared/settings-catalog';
import { routedApp, type RoutedApp } from './router-bridge';
import { revealField } from './settings-visibility';

type Path = CatalogEntry['path'];

/** What the person types (or ticks) per setting, and the value that must be stored. */
const TYPED: Record<Path, (provider: Provider) => { form: string | boolean; stored: unknown }> = {
  // English, not the default "system": the form stays in the words the rest of this test looks for.
  'interface.language': () => ({ form: 'en', stored: 'en' }),
  'aiPlanner.enabled': () => ({ form: true, stored: true }),
  'aiPlanner.provider': (provider) => ({ form: provider, stored: provider }),
  'aiPlanner.model': (provider) => ({ form: ` ${provider}-round-trip-model `, stored: `${provider}-round-trip-model` }),
  'aiPlanner.transport': () => ({ form: 'direct', stored: 'direct' }),
  'aiPlanner.timeoutSeconds': () => ({ form: '42', stored: 42 }),
  'aiPlanner.thinkingBudgetTokens': () => ({ form: '2048', stored: 2048 }),
  'aiPlanner.maxSteps': () => ({ form: '17', stored: 17 }),
  'aiPlanner.reuseRuns': () => ({ form: false, stored: false }),
  'aiPlanner.sendScreenshot': () => ({ form: false, stored: false }),
  'aiPlanner.screenshotLongEdge': () => ({ form: '1024', stored: 1024 }),
  'aiPlanner.appNotes': () => ({ form: false, stored: false }),
  'perception.sceneTokenBudget': () => ({ form: '3500', stored: 3500 }),
  'secrets.ANTHROPIC_API_KEY': () => ({ form: 'sk-ant-round-trip', stored: 'sk-ant-round-trip' }),
  'secrets.OPENAI_API_KEY': () => ({ form: 'sk-openai-round-trip', stored: 'sk-openai-round-trip' }),
  'anthropic.baseURL': () => ({ form: 'http://127.0.0.1:9001', stored: 'http://127.0.0.1:9001' }),
  'openai.baseURL': () => ({ form: 'http://127.0.0.1:9002/v1', stored: 'http://127.0.0.1:9002/v1' }),
  'controlPlane.url': () => ({ form: 'http://127.0.0.1:9003', stored: 'http://127.0.0.1:9003' }),
  'secrets.CONTROL_PLANE_TOKEN': () => ({ form: 'amc_round_trip_token', stored: 'amc_round_trip_token' }),
  'adb.host': () => ({ form: 'localhost', stored: 'localhost' }),
  'adb.port': () => ({ form: '5999', stored: 5999 }),
  'budget.maxTokens': () => ({ form: '250000', stored: 250_000 }),
  'budget.maxCostCents': () => ({ form: '150', stored: 150 }),
  'budget.maxMinutes': () => ({ form: '12', stored: 12 }),
  'budget.priceTable': (provider) => ({ form: `${provider}-round-trip-model 2/8`, stored: `${provider}-round-trip-model 2/8` }),
  'supervision.confirmation': () => ({ form: 'every', stored: 'every' }),
  'supervision.loopWarnAfter': () => ({ form: '4', stored: 4 }),
  'supervision.loopStopAfter': () => ({ form: '6', stored: 6 }),
  'supervision.standingInstructions': () => ({ form: ' My name is Ana. ', stored: 'My name is Ana.' }),
  'helpers.videoMirror': () => ({ form: false, stored: false }),
  'helpers.scrcpyServerPath': () => ({ form: ' /opt/scrcpy/scrcpy-server ', stored: '/opt/scrcpy/scrcpy-server' }),
  'helpers.yadbPath': () => ({ form: '/opt/yadb/yadb', stored: '/opt/yadb/yadb' }),
  'helpers.download': () => ({ form: false, stored: false }),
  'typing.method': () => ({ form: 'adb-keyboard', stored: 'adb-keyboard' }),
  'fleet.deviceGroups': () => ({ form: ' lab: emulator-5554 127.0.0.1:5601 ', stored: 'lab: emulator-5554 127.0.0.1:5601' }),
  'fleet.jobsMayPreApprove': () => ({ form: true, stored: true }),
  'fleet.jobsUsePlanCache': () => ({ form: true, stored: true }),
  'secrets.AMC_FLEET_REDIS': () => ({ form: 'redis://:round-trip-pass@127.0.0.1:6390', stored: 'redis://:round-trip-pass@127.0.0.1:6390' }),
};

interface Destinations {
  config: RuntimeConfig;
  provider: Provider;
}

/**
 * Where each setting must arrive, read from what the runtime builds: the direct client's options for the chosen
 * provider, the cloud-proxy client's options, the planner and its setup, the adb server the app connects to.
 * Each returns [where it arrived, what it must be there].
 */
const ARRIVES: Record<Path, (d: Destinations) => [unknown, unknown]> = {
  'interface.language': ({ config }) => [config.settings.interface.language, 'en'],
  'aiPlanner.enabled': ({ config }) => [buildPlanner(config, fakeClient).planner.info.kind, 'ai'],
  'aiPlanner.provider': ({ config, provider }) => [direct(config).provider, provider],
  'aiPlanner.model': ({ config, provider }) => [direct(config).model, `${provider}-round-trip-model`],
  'aiPlanner.transport': ({ config }) => [clientOptions(config).transport, 'direct'],
  'aiPlanner.timeoutSeconds': ({ config }) => [[direct(config).timeoutMs, proxy(config).timeoutMs], [42_000, 42_000]],
  // Extended thinking is Anthropic's: the OpenAI client is built without it.
  'aiPlanner.thinkingBudgetTokens': ({ config, provider }) => [direct(config).thinkingBudgetTokens, provider === 'anthropic' ? 2048 : undefined],
  'aiPlanner.maxSteps': ({ config }) => [buildPlanner(config, fakeClient).maxSteps, 17],
  // withPlanCache reads it for every AI task (src/core/flows/plan-cache.ts).
  'aiPlanner.reuseRuns': ({ config }) => [config.settings.aiPlanner.reuseRuns, false],
  'aiPlanner.sendScreenshot': ({ config }) => [buildPlanner(config, fakeClient).planner.accepts.screenshot, false],
  'aiPlanner.screenshotLongEdge': ({ config }) => [aiPlannerSetup(config).screenshotLongEdge, 1024],
  'perception.sceneTokenBudget': ({ config }) => [policies(config).sceneTokenBudget, 3500],
  'aiPlanner.appNotes': ({ config }) => [policies(config).appNotes, false],
  'secrets.ANTHROPIC_API_KEY': ({ config, provider }) => [direct(config).apiKey === 'sk-ant-round-trip', provider === 'anthropic'],
  'secrets.OPENAI_API_KEY': ({ config, provider }) => [direct(config).apiKey === 'sk-openai-round-trip', provider === 'openai'],
  'anthropic.baseURL': ({ config, provider }) => [direct(config).baseURL === 'http://127.0.0.1:9001', provider === 'anthropic'],
  'openai.baseURL': ({ config, provider }) => [direct(config).baseURL === 'http://127.0.0.1:9002/v1', provider === 'openai'],
  'controlPlane.url': ({ config }) => [proxy(config).url, 'http://127.0.0.1:9003'],
  'secrets.CONTROL_PLANE_TOKEN': ({ config }) => [proxy(config).token, 'amc_round_trip_token'],
  'adb.host': ({ config }) => [config.settings.adb.host, 'localhost'],
  'adb.port': ({ config }) => [config.settings.adb.port, 5999],
  'budget.maxTokens': ({ config }) => [policies(config).maxTokens, 250_000],
  'budget.maxCostCents': ({ config }) => [policies(config).maxCostUsd, 1.5],
  'budget.maxMinutes': ({ config }) => [policies(config).maxDurationMs, 12 * 60_000],
  'budget.priceTable': ({ config, provider }) => [policies(config).price, { model: `${provider}-round-trip-model`, input: 2, output: 8 }],
  'supervision.confirmation': ({ config }) => [policies(config).confirmation, 'every'],
  'supervision.loopWarnAfter': ({ config }) => [policies(config).loop.warnAfter, 4],
  'supervision.loopStopAfter': ({ config }) => [policies(config).loop.stopAfter, 6],
  'supervision.standingInstructions': ({ config }) => [policies(config).standingInstructions, 'My name is Ana.'],
  'helpers.videoMirror': ({ config }) => [config.settings.helpers.videoMirror, false],
  'helpers.scrcpyServerPath': ({ config }) => [config.settings.helpers.scrcpyServerPath, '/opt/scrcpy/scrcpy-server'],
  'helpers.yadbPath': ({ config }) => [config.settings.helpers.yadbPath, '/opt/yadb/yadb'],
  'helpers.download': ({ config }) => [config.settings.helpers.download, false],
  'typing.method': ({ config }) => [config.settings.typing.method, 'adb-keyboard'],
  'fleet.deviceGroups': ({ config }) => [deviceGroupsOf(config.settings.fleet.deviceGroups).get('lab'), ['emulator-5554', '127.0.0.1:5601']],
  'fleet.jobsMayPreApprove': ({ config }) => [config.settings.fleet.jobsMayPreApprove, true],
  'fleet.jobsUsePlanCache': ({ config }) => [config.settings.fleet.jobsUsePlanCache, true],
  'secrets.AMC_FLEET_REDIS': ({ config }) => [config.secrets.AMC_FLEET_REDIS, 'redis://:round-trip-pass@127.0.0.1:6390'],
};

const policies = (config: RuntimeConfig) => buildPlanner(config, fakeClient).policies!;

const fakeClient = { provider: 'openai' as const, decide: () => Promise.reject(new Error('not called')) };

function direct(config: RuntimeConfig) {
  const built = clientOptions(config);
  if (built.transport !== 'direct') throw new Error('expected the direct transport');
  return built.options;
}

function proxy(config: RuntimeConfig) {
  const built = clientOptions(applyTaskOverrides(config, { transport: 'cloud-proxy' }));
  if (built.transport !== 'cloud-proxy') throw new Error('expected the cloud-proxy transport');
  return built.options;
}

const apps: RoutedApp[] = [];
afterEach(async () => {
  cleanup();
  useSettingsStore.setState(useSettingsStore.getInitialState());
  for (const routed of apps.splice(0)) await routed.close();
});

async function fillIn(provider: Provider): Promise<void> {
  for (const field of SETTINGS_FIELDS) {
    revealField(field.path);
    const { form } = TYPED[field.path as Path](provider);
    const box = document.querySelector(`[data-field="${field.path}"]`) as HTMLElement;
    if (field.kind === 'secret') {
      fireEvent.change(within(box).getByLabelText(new RegExp(`^${field.label}`)), { target: { value: form } });
      fireEvent.click(within(box).getByRole('button', { name: `Set ${field.label}` }));
      await waitFor(() => expect(screen.getByTestId(`secret-state-${field.secret}`).textContent).toBe('set'));
    } else if (field.kind === 'toggle') {
      const box = screen.getByLabelText(field.label) as HTMLInputElement;
      if (box.checked !== form) fireEvent.click(box);
    } else {
      fireEvent.change(screen.getByLabelText(field.label), { target: { value: form } });
    }
  }
  // Revealing the other provider's and transport's fields changed the choices: set them as this run wants them.
  for (const path of ['aiPlanner.provider', 'aiPlanner.transport'] as const) {
    fireEvent.change(screen.getByLabelText(SETTINGS_FIELDS.find((field) => field.path === path)!.label), { target: { value: TYPED[path](provider).form } });
  }
}

describe('settings round trip', () => {
  it.each(['anthropic', 'openai'] as const)(
    'Scenario: Every setting travels from the form through the router and settings.json to the client options (%s)',
    async (provider) => {
      expect(SETTINGS_FIELDS.map((field) => field.path).sort()).toEqual(SETTINGS_CATALOG.map((entry) => entry.path).sort());
      const routed = await routedApp();
      apps.push(routed);
      useSettingsStore.getState().setScreen(await routed.bridge.call('settings.get', {}));
      render(
        <BridgeContext.Provider value={routed.bridge}>
          <SettingsForm />
        </BridgeContext.Provider>,
      );
      await fillIn(provider);
      const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
      await waitFor(() => expect(save.disabled).toBe(false));
      fireEvent.click(save);
      await screen.findByText('Saved. The next task uses these settings.');

      // On disk: settings.json holds every stored setting, the secret store every secret.
      const file = JSON.parse(await readFile(path.join(routed.app.home, 'settings.json'), 'utf8')) as Record<string, Record<string, unknown>>;
      const secrets = await createSecretStore(routed.app.home).load();
      for (const entry of SETTINGS_CATALOG) {
        const stored = entry.secret ? secrets[entry.key] : file[entry.group]?.[entry.key];
        expect(stored, entry.path).toEqual(TYPED[entry.path](provider).stored);
      }
      expect(JSON.stringify(file)).not.toMatch(/round-trip-token|sk-(ant|openai)-round-trip/);

      // Out of the configuration, into what the runtime builds.
      const config = await createConfigSource({ home: routed.app.home, env: {} }).load();
      for (const entry of SETTINGS_CATALOG) {
        const [arrived, expected] = ARRIVES[entry.path]({ config, provider });
        expect(arrived, `${entry.path} with ${provider}`).toEqual(expected);
      }
    },
  );
});
