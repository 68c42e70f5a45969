import type { Bridge } from '../bridge';
import { draftFromValues } from '../components/settings/fields';
import { reportError } from '../store/app-store';
import { useDevicesStore } from '../store/devices-store';
import { useHistoryStore } from '../store/history-store';
import { useMirrorStore } from '../store/mirror-store';
import { useSettingsStore } from '../store/settings-store';
import { useTaskStore } from '../store/task-store';

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

/** Follows the running task turn by turn; a window opened mid-task (or reloaded) re-attaches through `tasks.current`. */
export function taskSync(bridge: Bridge): TopicSync {
  let reattaching: Promise<void> | null = null;
  const load = () => {
    reattaching ??= bridge
      .call('tasks.current', {})
      .then((current) => useTaskStore.getState().attach(current))
      .finally(() => (reattaching = null));
    return reattaching;
  };
  return {
    load,
    listen: () =>
      bridge.on('task.event', (event) => {
        if (!useTaskStore.getState().applyEvent(event)) load().catch(reportError);
      }),
  };
}

export function historySync(bridge: Bridge): TopicSync {
  const load = async () => {
    const { tasks } = await bridge.call('history.list', {});
    useHistoryStore.getState().setTasks(tasks);
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
        const editing = state.screen !== null && draftFromValues(state.values, state.screen.settings).changed > 0;
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

export const allTopics = (bridge: Bridge): TopicSync[] => [
  devicesSync(bridge),
  taskSync(bridge),
  historySync(bridge),
  settingsSync(bridge),
  mirrorSync(bridge),
];
