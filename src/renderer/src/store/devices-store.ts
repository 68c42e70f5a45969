import { create } from 'zustand';
import type { DeviceList } from '../../../shared/contract';
import type { DeviceSummary } from '../../../shared/device';

export interface DevicesState {
  list: DeviceList | null;
  selectedSerial: string | null;
  setList(list: DeviceList): void;
  select(serial: string | null): void;
}

/** Keeps the person's choice while that phone is listed; otherwise picks the first usable phone. */
function keepOrPickSelection(devices: DeviceSummary[], selected: string | null): string | null {
  if (selected && devices.some((device) => device.serial === selected)) return selected;
  return devices.find((device) => device.state === 'device')?.serial ?? null;
}

export const useDevicesStore = create<DevicesState>()((set) => ({
  list: null,
  selectedSerial: null,
  setList: (list) => set((state) => ({ list, selectedSerial: keepOrPickSelection(list.devices, state.selectedSerial) })),
  select: (selectedSerial) => set({ selectedSerial }),
}));

export const selectedDevice = (state: DevicesState): DeviceSummary | undefined =>
  state.list?.devices.find((device) => device.serial === state.selectedSerial);
