import { defaultSettings, type Settings } from '../shared/settings';
import type { LatencyProfileName } from '@amc/demo-phone';
import { EventHub } from './ipc/event-hub';
import { logError } from '../core/storage/error-log';
import { createRouter, type MethodHandlers, type Router } from './ipc/router';
import type { HelperName } from '../core/device/helpers/catalog';
import { DeviceMirror } from './mirror/device-mirror';
import { VideoSource } from './mirror/video-source';
import { AdaptiveScreenGrabber } from './mirror/screen-capture';
import type { MirrorEncoding } from './mirror/frame-encoder';
import { applyEnvironment, createConfigSource } from '../core/runtime/config';
import { createDeviceLocks, type DeviceLocks } from '../core/storage/device-lock';
import { createSecretStore, resolveAmcHome, type SecretCodec } from '../core/storage/settings-store';
import { createTaskStore } from '../core/storage/task-store';
import { createNotesStore } from '../core/storage/notes-store';
import { notesHandlers } from './handlers/notes';
import { planCacheHandlers } from './handlers/plan-cache';
import { createPlanCacheStore } from '../core/storage/plan-cache-store';
import { DeviceService, adbServerOptions } from './device-service';
import { appHandlers } from './handlers/app';
import { deviceHandlers } from './handlers/devices';
import { flowHandlers } from './handlers/flows';
import { historyHandlers } from './handlers/history';
import { inspectHandlers } from './handlers/inspect';
import { mirrorHandlers } from './handlers/mirror';
import { settingsHandlers } from './handlers/settings';
import { taskHandlers } from './handlers/tasks';
import { PhoneAccess } from '../core/headless/phone-access';
import { installedPackages } from '../core/device/android/pm';
import { phoneHelpersFor } from './phone-typing';
export type { ScreenshotPolicy } from '../core/headless/phone-access';
import { SettingsService } from './settings-service';
import { TaskService } from './task-service';
import { createScheduleStore } from '../core/storage/schedule-store';
import { LocalScheduler, type SchedulerClock } from './local-scheduler';
import { scheduleHandlers } from './handlers/schedules';
import { recordingHandlers } from './handlers/recording';
import { RecordingService } from './recording-service';
import { watchScheduleFile } from './schedules-watch';
import { readFleetView } from './fleet-view';

export interface AppOptions {
  /** How often main proves it is alive to every window. */
  heartbeatMs?: number;
  /** The settings and data folder; default AMC_HOME, else the OS's app-data folder. */
  home?: string;
  /** Environment the overrides (AI_PLANNER_*, keys, ANDROID_ADB_SERVER_PORT) are read from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** How secrets are kept at rest; the Electron shell passes one backed by safeStorage. Default: a 0600 file. */
  secretCodec?: SecretCodec;
  /** Latency profile of the built-in demo phone. */
  demoProfile?: LatencyProfileName;
  /** Size and format of live-mirror frames. */
  mirrorEncoding?: Partial<MirrorEncoding>;
  /** Release addresses of the phone helpers instead of the official ones (tests use loopback servers). */
  helperDownloadUrls?: Partial<Record<HelperName, string>>;
  /** The clock local schedules fire by (tests move it by hand). */
  scheduleClock?: SchedulerClock;
}

/** The running services behind every transport (Electron window, web host) and the CLI. */
export interface AppServices {
  router: Router;
  events: EventHub;
  /** Where settings, secrets and history live. */
  home: string;
  /**
   * For adapters whose caller plans by itself (the MCP server): the same Observer and Executor tasks use, the
   * device check, and the per-phone locks the app's tasks and `amc run` take (one agent per phone).
   */
  agent: {
    phone: Pick<PhoneAccess, 'observe' | 'executorPort'>;
    /** The settings in effect now (an agent's observations keep to the Scene token budget, as a task's do). */
    settings(): Promise<Settings>;
    checkReady(serial: string): Promise<void>;
    locks: DeviceLocks;
    /** The packages installed on the phone (`pm list packages`), for an agent choosing what to open. */
    installedApps(serial: string, signal?: AbortSignal): Promise<string[]>;
  };
  close(): Promise<void>;
}

/**
 * Composition root: builds the services once and exposes them through one router and one event hub.
 * Nothing here needs adb or a valid configuration to start: problems are reported through the methods.
 */
export async function createApp(options: AppOptions = {}): Promise<AppServices> {
  const env = options.env ?? process.env;
  const home = options.home ?? resolveAmcHome(env);
  const events = new EventHub();
  const startedAt = Date.now();

  const config = createConfigSource({ env, home, secretStore: createSecretStore(home, options.secretCodec) });
  /**
   * Stored settings (defaults when the file is unreadable) with every valid environment override: one invalid
   * variable must not send the device list to another adb server. Settings and a task's start name the invalid ones.
   */
  const effectiveSettings = async (): Promise<Settings> => {
    const stored = await config.settingsStore.load().catch(() => defaultSettings());
    return applyEnvironment({ settings: stored, secrets: {} }, env).config.settings;
  };
  const devices = new DeviceService({
    events,
    env,
    demoProfile: options.demoProfile,
    initialAddress: async () => adbServerOptions(await effectiveSettings(), env),
  });
  /** The settings the mirror is made from (helper files, downloads, video on or off): a change restarts it. */
  const mirrorKey = ({ helpers }: Settings) => JSON.stringify([helpers.scrcpyServerPath, helpers.download, helpers.videoMirror]);
  let mirroredWith: string | null = null;
  void effectiveSettings().then((effective) => (mirroredWith ??= mirrorKey(effective)));
  const settings = new SettingsService(config, events, env, () => {
    void effectiveSettings().then((effective) => {
      devices.configure(adbServerOptions(effective, env));
      const key = mirrorKey(effective);
      if (mirroredWith !== null && key !== mirroredWith) mirror.restart();
      mirroredWith = key;
    });
  });

  const helpers = phoneHelpersFor({ adb: () => devices.adb(), settings: effectiveSettings, home, downloadUrls: options.helperDownloadUrls, env });
  const grabber = new AdaptiveScreenGrabber(() => devices.adb());
  const mirror = new DeviceMirror({
    events,
    grab: (serial, signal) => grabber.grab(serial, { signal }),
    encoding: options.mirrorEncoding,
    video: {
      source: new VideoSource({ adb: () => devices.adb(), server: () => helpers.provider.get('scrcpy-server') }),
      enabled: async () => (await effectiveSettings()).helpers.videoMirror,
    },
  });
  const phone = new PhoneAccess(() => devices.adb(), (serial, work) => mirror.yieldTo(serial, work), { typing: helpers.typing });
  const store = createTaskStore(home);
  const notes = createNotesStore(home);
  const planCache = createPlanCacheStore(home);
  const locks = createDeviceLocks(home);
  const tasks = new TaskService({
    events,
    store,
    phone,
    loadConfig: () => config.load(),
    checkDevice: (serial) => devices.checkReady(serial),
    demoPhone: (number) => devices.demoSerial(number),
    deviceLock: locks,
    // Settings' list of notes follows what tasks learn.
    appNotes: {
      notesFor: (app) => notes.notesFor(app),
      keep: async (taskId, routes) => {
        if ((await notes.keep(taskId, routes)).length) events.publish('notes.changed', { change: 'learned' });
      },
    },
    planCache,
  });

  // Local schedules fire while this app runs; runs due while it was closed are noted as missed as it starts.
  const scheduleStore = createScheduleStore(home);
  const scheduler = new LocalScheduler({
    store: scheduleStore,
    ...(options.scheduleClock && { clock: options.scheduleClock }),
    launch: ({ goal, flow, phones, maxSteps, allowedApps }) =>
      flow ? tasks.launchFlow(phones, flow.content) : tasks.launch({ goal, phones, ...(maxSteps && { maxSteps }), ...(allowedApps && { allowedApps }) }),
    changed: (overview) => events.publish('schedules.changed', overview),
  });
  const schedulesReady = scheduler.start().catch((error: unknown) => void logError(home, 'app', 'schedules.list', error));
  const scheduleWatch = watchScheduleFile(scheduleStore.file, () => void scheduler.rearm().catch(() => undefined));

  const recorder = new RecordingService({
    events,
    readScreen: async (serial) => {
      const started = performance.now();
      const seen = await phone.observe(serial, { screenshot: false });
      return { scene: seen.scene, ...(seen.sceneError && { error: seen.sceneError }), ms: performance.now() - started };
    },
    keep: async (event) => {
      await store.append(event);
      if (event.type === 'task.finished') events.publish('history.changed', { id: event.taskId, change: 'added' });
    },
  });

  const handlers: MethodHandlers = {
    ...appHandlers(),
    ...deviceHandlers(devices, phone, tasks, mirror, recorder),
    ...recordingHandlers(recorder),
    ...mirrorHandlers(mirror),
    ...taskHandlers(tasks),
    ...historyHandlers(store, events),
    ...flowHandlers(tasks, store),
    ...settingsHandlers(settings),
    ...notesHandlers(notes, events),
    ...planCacheHandlers(planCache),
    ...scheduleHandlers(scheduler),
    ...inspectHandlers(phone, tasks, store, async () => (await effectiveSettings()).perception.sceneTokenBudget),
    'fleet.overview': async () => readFleetView(await config.load()),
  };

  let seq = 0;
  const heartbeat = setInterval(() => {
    events.publish('app.heartbeat', { seq: seq++, at: Date.now(), uptimeMs: Date.now() - startedAt });
  }, options.heartbeatMs ?? 2000);
  heartbeat.unref();

  let closing: Promise<void> | undefined;
  return {
    router: createRouter(handlers, (method, error) => void logError(home, 'app', method, error)),
    events,
    home,
    agent: {
      phone,
      settings: effectiveSettings,
      checkReady: (serial) => devices.checkReady(serial),
      locks,
      installedApps: async (serial, signal) => {
        const adb = await devices.adb();
        return installedPackages((command) => adb.shell(serial, command, { ...(signal && { signal }), timeoutMs: 15_000 }));
      },
    },
    close() {
      closing ??= (async () => {
        clearInterval(heartbeat);
        scheduleWatch?.close();
        await schedulesReady;
        await scheduler.stop();
        await mirror.close();
        await tasks.close();
        await store.close();
        await devices.close();
      })();
      return closing;
    },
  };
}
