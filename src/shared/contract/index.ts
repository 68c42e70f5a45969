import type { z } from 'zod';
import { appEvents, appMethods } from './app';
import { deviceEvents, deviceMethods } from './devices';
import { flowMethods } from './flows';
import { historyEvents, historyMethods } from './history';
import { mirrorEvents, mirrorMethods } from './mirror';
import { notesEvents, notesMethods } from './notes';
import { planCacheMethods } from './plan-cache';
import { settingsEvents, settingsMethods } from './settings';
import { supervisionMethods } from './supervision';
import { taskEvents, taskMethods } from './tasks';
import { scheduleEvents, scheduleMethods } from './schedules';
import { fleetMethods } from './fleet';
import { recordingEvents, recordingMethods } from './recording';
import { inspectMethods } from './inspect';

export * from './define';
export * from './app';
export * from './devices';
export * from './history';
export * from './flows';
export * from './mirror';
export * from './notes';
export * from './plan-cache';
export * from './settings';
export * from './tasks';
export * from './schedules';
export * from './fleet';
export * from './recording';
export * from './supervision';
export * from './inspect';
export * from './frame';
export * from './web-protocol';

/** Every method a window may call. Each topic contributes its own map (devices, tasks, settings, ...). */
export const methods = {
  ...appMethods,
  ...deviceMethods,
  ...mirrorMethods,
  ...taskMethods,
  ...supervisionMethods,
  ...historyMethods,
  ...flowMethods,
  ...settingsMethods,
  ...notesMethods,
  ...planCacheMethods,
  ...scheduleMethods,
  ...fleetMethods,
  ...recordingMethods,
  ...inspectMethods,
};

/** Every event main pushes to windows, one topic at a time (never the whole state). */
export const events = {
  ...appEvents,
  ...deviceEvents,
  ...mirrorEvents,
  ...taskEvents,
  ...historyEvents,
  ...settingsEvents,
  ...notesEvents,
  ...scheduleEvents,
  ...recordingEvents,
};

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type MethodInput<M extends MethodName> = z.input<Methods[M]['input']>;
export type MethodParsedInput<M extends MethodName> = z.output<Methods[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Methods[M]['output']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const methodNames = Object.keys(methods) as MethodName[];
export const eventNames = Object.keys(events) as EventName[];

export const isMethodName = (name: unknown): name is MethodName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name);
export const isEventName = (name: unknown): name is EventName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);

/** Channel names of the Electron transport, derived from the contract so preload and shell cannot drift. */
export const ipcChannel = {
  method: (name: MethodName) => `amc:call:${name}`,
  event: (name: EventName) => `amc:event:${name}`,
  frame: 'amc:frame',
} as const;
