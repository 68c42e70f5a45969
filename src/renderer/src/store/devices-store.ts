import { z } from 'zod';
import type { DeviceList } from '../../../shared/contract';
import type { DeviceSummary } from '../../../shared/device';
import type { Words } from '../../../shared/i18n/translate';
import { wordSaid } from '../../../shared/said';
import { create } from 'zustand';
import { readStored, writeStored } from '../lib/local-store';

const NAMES_KEY = 'amc.phoneNames';
const NamesSchema = z.record(z.string(), z.string());

export interface DevicesState {
  list: DeviceList | null;
  selectedSerial: string | null;
  /**
   * The phone the person had selected that is no longer listed. The selection never moves by itself: Run stays
   * off until the person picks a phone (or this one comes back, which selects it again).
   */
  vanishedSerial: string | null;
  /** Names of the phones this browser has seen (also the ones gone since), for History. */
  names: Record<string, string>;
  setList(list: DeviceList): void;
  select(serial: string | null): void;
}

/** What the app calls a phone: its app-given name (demo phones), else its model, else its serial. */
export const phoneName = (device: Pick<DeviceSummary, 'serial' | 'name' | 'nameSaid' | 'model'>, words?: Words): string =>
  (device.name && words ? wordSaid(device.name, device.nameSaid, words) : device.name) ?? device.model ?? device.serial;

function rememberNames(known: Record<string, string>, devices: DeviceSummary[]): Record<string, string> {
  const named = devices.filter((device) => device.name ?? device.model);
  if (named.every((device) => known[device.serial] === phoneName(device))) return known;
  const names = { ...known, ...Object.fromEntries(named.map((device) => [device.serial, phoneName(device)])) };
  writeStored(NAMES_KEY, names);
  return names;
}

/**
 * The first list picks the first usable phone when none is chosen; after that a choice stays the person's: a phone
 * that goes away is reported (vanishedSerial), never silently replaced by another one.
 */
function nextSelection(state: DevicesState, devices: DeviceSummary[]): Pick<DevicesState, 'selectedSerial' | 'vanishedSerial'> {
  const listed = (serial: string | null) => serial !== null && devices.some((device) => device.serial === serial);
  if (listed(state.selectedSerial)) return { selectedSerial: state.selectedSerial, vanishedSerial: null };
  if (listed(state.vanishedSerial)) return { selectedSerial: state.vanishedSerial, vanishedSerial: null };
  if (state.selectedSerial !== null) return { selectedSerial: null, vanishedSerial: state.selectedSerial };
  if (state.vanishedSerial !== null) return { selectedSerial: null, vanishedSerial: state.vanishedSerial };
  return { selectedSerial: devices.find((device) => device.state === 'device')?.serial ?? null, vanishedSerial: null };
}

export const useDevicesStore = create<DevicesState>()((set) => ({
  list: null,
  selectedSerial: null,
  vanishedSerial: null,
  names: readStored(NAMES_KEY, NamesSchema, {}),
  setList: (list) => set((state) => ({ list, ...nextSelection(state, list.devices), names: rememberNames(state.names, list.devices) })),
  select: (selectedSerial) => set({ selectedSerial, vanishedSerial: null }),
}));

export const selectedDevice = (state: DevicesState): DeviceSummary | undefined =>
  state.list?.devices.find((device) => device.serial === state.selectedSerial);

/**
 * A phone's name when one is known: the listed phone's own (a demo phone's in the window's language, given `words`),
 * else the name this browser last saw for the serial; null when neither is known.
 */
export function knownPhoneName(state: Pick<DevicesState, 'names'> & Partial<Pick<DevicesState, 'list'>>, serial: string, words?: Words): string | null {
  const listed = state.list?.devices.find((device) => device.serial === serial);
  if (listed && (listed.name ?? listed.model)) return phoneName(listed, words);
  return state.names[serial] ?? null;
}

/** A serial's name (see `knownPhoneName`), or the serial itself. */
export const nameOfSerial = (state: Pick<DevicesState, 'names'> & Partial<Pick<DevicesState, 'list'>>, serial: string, words?: Words): string =>
  knownPhoneName(state, serial, words) ?? serial;
