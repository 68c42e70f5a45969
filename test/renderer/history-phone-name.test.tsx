// @vitest-environment jsdom
// History's phone column names the phone: a listed demo phone by its own name in the window's language (its serial
// in the tooltip), a phone this browser saw before by the name it had, an unknown one by its serial alone.
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskSummary } from '../../src/shared/contract';
import { say } from '../../src/shared/said';
import { i18nextFor } from '../../src/shared/i18n/translate';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { HistoryPanel } from '../../src/renderer/src/components/history/HistoryPanel';
import { useDevicesStore } from '../../src/renderer/src/store/devices-store';
import { useHistoryStore } from '../../src/renderer/src/store/history-store';
import { FakeBridge } from './fake-bridge';

const DEMO = '127.0.0.1:41237';
const summary = (id: string, serial: string): TaskSummary => ({
  id,
  goal: `Goal ${id}`,
  serial,
  status: 'completed',
  failureReason: null,
  planner: { kind: 'ai', provider: 'anthropic', transport: 'direct', model: 'claude-test', exposesReasoning: true },
  steps: 3,
  createdAt: 1_700_000_000_000,
  finishedAt: 1_700_000_010_000,
  durationMs: 10_000,
  usage: { inputTokens: 100, outputTokens: 10 },
});

beforeEach(() => {
  // This browser saw a USB phone by its model before; it has never seen the demo phone's serial (its port is new).
  useDevicesStore.setState({ ...useDevicesStore.getInitialState(), names: { R58M123: 'SM-G991B' } }, true);
  useHistoryStore.setState(useHistoryStore.getInitialState(), true);
});
afterEach(cleanup);

function historyIn(language: 'en' | 'zh-CN') {
  const demo = say('phoneName.demo');
  useDevicesStore.getState().setList({ devices: [{ serial: DEMO, state: 'device', connection: 'tcp', model: 'AMC_Virtual_Phone', name: demo.text, nameSaid: demo.said }], adbServer: '127.0.0.1:5037', problem: null });
  useHistoryStore.getState().setListing({ tasks: [summary('demo', DEMO), summary('usb', 'R58M123'), summary('gone', 'emulator-5554')], damaged: [] });
  render(
    <I18nextProvider i18n={i18nextFor(language)}>
      <BridgeContext.Provider value={new FakeBridge({})}>
        <HistoryPanel />
      </BridgeContext.Provider>
    </I18nextProvider>,
  );
  return (id: string) => screen.getAllByTestId('history-row').find((row) => row.getAttribute('data-task-id') === id)!.querySelector('[data-testid="history-phone"]')!;
}

describe("History's phone column", () => {
  it("Scenario: History names a demo phone by its own name in the window's language, its serial in the tooltip", () => {
    const phone = historyIn('zh-CN');
    expect(phone('demo').textContent).toBe('演示手机 · claude-test');
    expect(phone('demo').getAttribute('title')).toBe(`演示手机 (${DEMO}) · claude-test`);
    // A phone seen before keeps its name; one never seen shows its serial, once.
    expect(phone('usb').textContent).toBe('SM-G991B · claude-test');
    expect(phone('usb').getAttribute('title')).toBe('SM-G991B (R58M123) · claude-test');
    expect(phone('gone').textContent).toBe('emulator-5554 · claude-test');
    expect(phone('gone').getAttribute('title')).toBe('emulator-5554 · claude-test');
    // The phone filter names the phones alike.
    expect(screen.getByRole('option', { name: '演示手机' }).getAttribute('value')).toBe(DEMO);
  });

  it('an English window names the demo phone in English', () => {
    const phone = historyIn('en');
    expect(phone('demo').textContent).toBe('Demo phone · claude-test');
  });
});
