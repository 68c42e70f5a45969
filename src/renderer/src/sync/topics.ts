import type { Bridge } from '../bridge';
import { reportError } from '../store/app-store';
import { useDevicesStore } from '../store/devices-store';
import { useHistoryStore } from '../store/history-store';
import { useMirrorStore } from '../store/mirror-store';
import { useNotesStore } from '../store/notes-store';
import { unsavedSettings, useSettingsStore } from '../store/settings-store';
import { isRunning, useTaskStore } from '../store/task-store';
import { useSchedulesStore } from '../store/schedules-store';
import { z } from 'zod';

/**
 * The task each phone showed last (its id by serial), so a reloaded window shows it again rather than nothing. Kept
 * for this tab only (sessionStorage): a reload keeps it, another window starts empty.
 */
const SHOWN_TASKS_KEY = 'amc.shownTasks';
const ShownTasksSchema = z.record(z.string(), z.string());
function shownTasks(): Record<string, string> {
  try {
    const parsed = ShownTasksSchema.safeParse(JSON.parse(sessionStorage.getItem(SHOWN_TASKS_KEY) ?? '{}'));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}
function rememberShown(shown: Record<string, string>): void {
  try {
    sessionStorage.setItem(SHOWN_TASKS_KEY, JSON.stringify(shown));
  } catch {
    // Storage can be unavailable: a reload then starts with an empty Current task, as before.
  }
}

/** One topic's link to main: `load` fetches its state (at start and after a reconnect), `listen` follows its events. */
export interface TopicSync {
  load(): Promise<void>;
  listen(): () => void;
}

export function devicesSync(bridge: Bridge): TopicSync {
  const { setList } = useDevicesStore.getState();
  return {
    load: async () => setList(await bridge.call('devices.list', {})),
    listen: () => bridge.on('devices.changed', setList),
  };
}

/**
 * Follows every task turn by turn. A window opened (or reloaded) mid-task re-attaches through `tasks.current`: at
 * load, for each usable phone as it appears in the list, and once for an event of a task it does not know.
 */
export function taskSync(bridge: Bridge): TopicSync {
  const asked = new Set<string>();
  const unknownTasks = new Set<string>();
  const usableSerials = () =>
    useDevicesStore.getState().list?.devices.filter((device) => device.state === 'device').map((device) => device.serial) ?? [];

  const attach = async (serial?: string) => {
    const current = await bridge.call('tasks.current', serial ? { serial } : {});
    const target = current.task?.serial ?? serial;
    if (!target) return;
    const store = useTaskStore.getState();
    const before = store.bySerial[target];
    store.attach(target, current);
    // It finished while this window was away: show how it ended.
    if (!current.task && before && isRunning(before.task)) store.replace(await bridge.call('history.get', { id: before.task.id }));
    // A fresh window (a reload): the task this phone showed last, as history has it now.
    const shownId = shownTasks()[target];
    if (!current.task && !before && shownId) {
      const record = await bridge.call('history.get', { id: shownId }).catch(() => null);
      if (record?.serial === target && !useTaskStore.getState().bySerial[target]) store.replace(record);
    }
  };
  const attachNew = (serials: string[]) =>
    Promise.all(
      serials.filter((serial) => !asked.has(serial)).map((serial) => {
        asked.add(serial);
        return attach(serial);
      }),
    );

  return {
    load: async () => {
      asked.clear();
      unknownTasks.clear();
      await Promise.all([attach(), attachNew(usableSerials())]);
    },
    listen: () => {
      const offEvents = bridge.on('task.event', (event) => {
        if (useTaskStore.getState().applyEvent(event) || unknownTasks.has(event.taskId)) return;
        // One look per unknown task: its later events apply once the snapshot is in (or it runs where nobody looks).
        unknownTasks.add(event.taskId);
        Promise.all(usableSerials().map((serial) => attach(serial))).catch(reportError);
      });
      const offDevices = useDevicesStore.subscribe((state, previous) => {
        if (state.list !== previous.list) attachNew(usableSerials()).catch(reportError);
      });
      const offShown = useTaskStore.subscribe((state, previous) => {
        if (state.bySerial === previous.bySerial) return;
        // Written only when a phone shows another task, not at every turn.
        const stored = shownTasks();
        const changed = Object.entries(state.bySerial).filter(([serial, entry]) => stored[serial] !== entry.task.id);
        if (changed.length) rememberShown({ ...stored, ...Object.fromEntries(changed.map(([serial, entry]) => [serial, entry.task.id])) });
      });
      return () => {
        offEvents();
        offDevices();
        offShown();
      };
    },
  };
}

export function historySync(bridge: Bridge): TopicSync {
  const load = async () => {
    useHistoryStore.getState().setListing(await bridge.call('history.list', {}));
  };
  return { load, listen: () => bridge.on('history.changed', () => load().catch(reportError)) };
}

export function settingsSync(bridge: Bridge): TopicSync {
  return {
    load: async () => useSettingsStore.getState().setScreen(await bridge.call('settings.get', {})),
    listen: () =>
      bridge.on('settings.changed', (screen) => {
        // Another window (or the CLI) saved: take its values, but never throw away what this person is typing.
        const state = useSettingsStore.getState();
        const editing = unsavedSettings(state).changed > 0;
        state.setScreen(screen, { keepEdits: editing });
      }),
  };
}

/** Mirror state from main; the window also tells main when it cannot be seen, so capture pauses. */
export function mirrorSync(bridge: Bridge): TopicSync {
  const reportVisibility = () => {
    bridge
      .call('mirror.setVisible', { visible: document.visibilityState !== 'hidden' })
      .then((status) => useMirrorStore.getState().setStatus(status))
      .catch(reportError);
  };
  return {
    load: async () => {
      useMirrorStore.getState().setStatus(await bridge.call('mirror.getStatus', {}));
      reportVisibility();
    },
    listen: () => {
      const off = bridge.on('mirror.status', (status) => useMirrorStore.getState().setStatus(status));
      document.addEventListener('visibilitychange', reportVisibility);
      return () => {
        off();
        document.removeEventListener('visibilitychange', reportVisibility);
      };
    },
  };
}

/** Notes per app: learned by tasks, edited and deleted in Settings, removed by marking a run as wrong. */
export function notesSync(bridge: Bridge): TopicSync {
  const load = async () => {
    useNotesStore.getState().setListing(await bridge.call('notes.list', {}));
  };
  return { load, listen: () => bridge.on('notes.changed', () => load().catch(reportError)) };
}

export function schedulesSync(bridge: Bridge): TopicSync {
  const { setOverview } = useSchedulesStore.getState();
  return {
    load: async () => setOverview(await bridge.call('schedules.list', {})),
    listen: () => bridge.on('schedules.changed', setOverview),
  };
}

export const allTopics = (bridge: Bridge): TopicSync[] => [
  devicesSync(bridge),
  taskSync(bridge),
  historySync(bridge),
  settingsSync(bridge),
  mirrorSync(bridge),
  notesSync(bridge),
  schedulesSync(bridge),
];
