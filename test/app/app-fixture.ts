// A real app (createApp) on an isolated adb server + virtual device, with every router output and event kept
// serialized so tests can scan them (e.g. for secrets).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApp, type AppOptions, type AppServices } from '../../src/app/create-app';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import type { EventName, EventPayload, FrameMeta, MethodInput, MethodName, MethodOutput, RpcError } from '../../src/shared/contract';
import type { TaskEvent } from '../../src/shared/task';
import { MODEL_PLANS_EVERY_STEP } from '../support/planner-env';

export interface TestApp {
  app: AppServices;
  home: string;
  /** Calls a method and returns its value; throws with the RpcError when it failed. */
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  /** Calls a method that must fail and returns its error. */
  fail(method: MethodName, input: unknown): Promise<RpcError>;
  /** Every event published so far, in order. */
  events: Array<{ name: EventName; payload: unknown }>;
  /** Everything that left main through the router or the event hub, as JSON text. */
  transcript(): string;
  /** Resolves with the first (past or future) event that matches. */
  waitForEvent<E extends EventName>(name: E, match?: (payload: EventPayload<E>) => boolean, timeoutMs?: number): Promise<EventPayload<E>>;
  waitForTaskEvent<T extends TaskEvent['type']>(taskId: string, type: T, timeoutMs?: number): Promise<Extract<TaskEvent, { type: T }>>;
  close(): Promise<void>;
}

/** The environment the app reads: only what the test gives it (never the developer's keys). */
export function isolatedEnv(adbEnv: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  // No helpers unless a test gives them: neither the shipped copies nor downloads (a machine with a network would
  // otherwise fetch scrcpy-server), or the mirror would switch to video and typing to yadb.
  return { PATH: process.env.PATH, HOME: adbEnv.HOME, ANDROID_ADB_SERVER_PORT: adbEnv.ANDROID_ADB_SERVER_PORT, AMC_HELPER_DOWNLOAD: 'off', AMC_PHONE_HELPERS_DIR: '', ...MODEL_PLANS_EVERY_STEP, ...extra };
}

export async function startTestApp(options: AppOptions & { home?: string } = {}): Promise<TestApp> {
  const home = options.home ?? (await mkdtemp(path.join(os.tmpdir(), 'amc-app-')));
  const app = await createApp({ heartbeatMs: 60_000, ...options, home });
  const events: TestApp['events'] = [];
  const outputs: string[] = [];
  const waiters = new Set<() => void>();
  app.events.subscribe((name, payload) => {
    events.push({ name, payload });
    outputs.push(JSON.stringify({ name, payload }));
    for (const waiter of waiters) waiter();
  });

  async function raw(method: unknown, input: unknown) {
    const result = await app.router.call(method, input, { transport: 'web' });
    outputs.push(JSON.stringify(result));
    return result;
  }

  function waitForEvent<E extends EventName>(name: E, match: (payload: EventPayload<E>) => boolean = () => true, timeoutMs = 20_000) {
    return new Promise<EventPayload<E>>((resolve, reject) => {
      const check = () => {
        const found = events.find((e) => e.name === name && match(e.payload as EventPayload<E>));
        if (!found) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found.payload as EventPayload<E>);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${name} event within ${timeoutMs} ms`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });
  }

  return {
    app,
    home,
    async call(method, input) {
      const result = await raw(method, input);
      if (!result.ok) throw new Error(`${method} failed: ${result.error.message}`);
      return result.value as never;
    },
    async fail(method, input) {
      const result = await raw(method, input);
      if (result.ok) throw new Error(`${method} was expected to fail but answered ${JSON.stringify(result.value)}`);
      return result.error;
    },
    events,
    transcript: () => outputs.join('\n'),
    waitForEvent,
    waitForTaskEvent: (taskId, type, timeoutMs) =>
      waitForEvent('task.event', (e) => e.taskId === taskId && e.type === type, timeoutMs) as never,
    async close() {
      await app.close();
    },
  };
}

export async function removeHome(home: string): Promise<void> {
  await rm(home, { recursive: true, force: true });
}

/** A test file's phone and app: an isolated adb harness with the app on it; `stop()` undoes both. */
export async function startAppOnPhone(): Promise<{ harness: AdbHarness; app: TestApp; stop(): Promise<void> }> {
  const harness = await startAdbHarness();
  const app = await startTestApp({ env: isolatedEnv(harness.env) });
  return {
    harness,
    app,
    async stop() {
      await app.close();
      await harness.stop();
      await removeHome(app.home);
    },
  };
}

/** Collects binary frames from the hub like a window would. */
export function collectFrames(app: AppServices): { frames: FrameMeta[]; bytes: number[]; stop(): void } {
  const frames: FrameMeta[] = [];
  const bytes: number[] = [];
  const stop = app.events.subscribeFrames((meta, data) => {
    frames.push(meta);
    bytes.push(data.byteLength);
  });
  return { frames, bytes, stop };
}

export async function until(condition: () => boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
