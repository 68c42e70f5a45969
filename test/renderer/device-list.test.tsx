// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { DeviceList } from '../../src/renderer/src/components/devices/DeviceList';
import { useDevicesStore } from '../../src/renderer/src/store/devices-store';
import { FakeBridge } from './fake-bridge';

beforeEach(() => useDevicesStore.setState(useDevicesStore.getInitialState(), true));
afterEach(cleanup);

describe('device list', () => {
  it('Scenario: A phone that is not usable says what to do in plain words', () => {
    const bridge = new FakeBridge({ 'devices.disconnect': ({ serial }) => ({ serial }) });
    useDevicesStore.getState().setList({
      devices: [
        { serial: 'R58M123', state: 'unauthorized', connection: 'usb' },
        { serial: '192.168.1.20:5555', state: 'offline', connection: 'tcp', hint: 'Wi-Fi debugging was turned off on the phone.' },
        { serial: 'emulator-5554', state: 'device', connection: 'tcp', model: 'Pixel 8', androidVersion: '14' },
      ],
      adbServer: '127.0.0.1:5037',
      problem: null,
    });
    render(
      <BridgeContext.Provider value={bridge}>
        <DeviceList />
      </BridgeContext.Provider>,
    );
    const rows = screen.getAllByTestId('device-row');
    expect(within(rows[0]!).getByTestId('device-hint').textContent).toBe('Unlock the phone and accept the "Allow USB debugging?" prompt.');
    expect(rows[0]!.textContent).toContain('USB');
    expect(rows[0]!.textContent).toContain('not authorized');
    // main's own hint wins over the generic one.
    expect(within(rows[1]!).getByTestId('device-hint').textContent).toBe('Wi-Fi debugging was turned off on the phone.');
    expect(within(rows[2]!).queryByTestId('device-hint')).toBeNull();
    expect(rows[2]!.textContent).toMatch(/Pixel 8.*emulator-5554.*TCP.*Android 14.*ready/);
    // The first usable phone is selected; a click selects another; TCP phones can be disconnected.
    expect(within(rows[2]!).getByRole('button', { pressed: true })).toBeTruthy();
    fireEvent.click(within(rows[1]!).getByRole('button', { pressed: false }));
    expect(useDevicesStore.getState().selectedSerial).toBe('192.168.1.20:5555');
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect 192.168.1.20:5555' }));
    expect(bridge.callsOf('devices.disconnect')).toEqual([{ serial: '192.168.1.20:5555' }]);
    expect(screen.queryByRole('button', { name: 'Disconnect R58M123' })).toBeNull();
  });

  it('Scenario: A problem with adb itself is shown above the list', () => {
    useDevicesStore.getState().setList({ devices: [], adbServer: '127.0.0.1:5037', problem: 'adb was not found. Install the Android platform tools.' });
    render(
      <BridgeContext.Provider value={new FakeBridge({})}>
        <DeviceList />
      </BridgeContext.Provider>,
    );
    expect(screen.getByRole('alert').textContent).toBe('adb was not found. Install the Android platform tools.');
    expect(screen.getByTestId('devices-empty')).toBeTruthy();
  });
});
