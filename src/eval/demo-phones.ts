import { Worker } from 'node:worker_threads';
import type { AdbClient } from '../main/device/adb-client';
import type { ControlReplies, ControlRoute } from '../virtual-device/control-api';
import type { LatencyProfileName } from '../virtual-device/index';
import type { PhoneFault } from '../virtual-device/phone/faults';
import type { PhoneSeed, PhoneStateView } from '../virtual-device/phone/model';
import { PhoneThreadReadySchema, PhoneThreadReplySchema, type PhoneThreadRequest } from './demo-phone-thread';

const READY_TIMEOUT_MS = 15_000;
const CLOSE_TIMEOUT_MS = 3_000;
const THREAD_ENTRY = new URL('./demo-phone-thread.mjs', import.meta.url);

/** One demo phone the suite drives: its adb serial and its control API (seed, faults, state). */
export interface EvalPhone {
  readonly serial: string;
  /** Puts the phone in a task's starting state: the seed, then each fault (e.g. a pop-up in the way). */
  prepare(seed: PhoneSeed | undefined, faults: readonly PhoneFault[] | undefined): Promise<void>;
  state(): Promise<PhoneStateView>;
}

/** A demo phone running on a worker thread of its own. */
interface PhoneThread {
  adbAddress: string;
  control<Route extends ControlRoute>(route: Route, body?: unknown): Promise<ControlReplies[Route]>;
  close(): Promise<void>;
}

async function waitUntilListed(adb: AdbClient, serial: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await adb.listDevices()).some((device) => device.serial === serial && device.state === 'device')) {
    if (Date.now() > deadline) throw new Error(`The demo phone ${serial} did not become ready within ${READY_TIMEOUT_MS / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends control routes to the phone's thread and matches each reply to its request. */
function controlOver(worker: Worker, adbAddress: string): PhoneThread['control'] {
  const pending = new Map<number, { resolve(reply: unknown): void; reject(error: Error): void }>();
  let nextId = 0;
  worker.on('message', (message: unknown) => {
    const parsed = PhoneThreadReplySchema.safeParse(message);
    const waiting = parsed.success ? pending.get(parsed.data.id) : undefined;
    if (!parsed.success || !waiting) return;
    pending.delete(parsed.data.id);
    if ('error' in parsed.data) waiting.reject(new Error(`The demo phone ${adbAddress} refused it: ${parsed.data.error}`));
    else waiting.resolve(parsed.data.reply);
  });
  worker.once('exit', () => pending.forEach(({ reject }) => reject(new Error(`The demo phone ${adbAddress} has stopped.`))));
  return (route, body) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (reply: unknown) => void, reject });
      worker.postMessage({ id, route, body } satisfies PhoneThreadRequest);
    });
}

/**
 * Starts a demo phone on a worker thread: with N phones in the host's own thread, the phones' work (dumps,
 * rendering, adb) and the host's share one core, and N tasks at once run little faster than one at a time.
 */
function startPhoneThread(profile: LatencyProfileName): Promise<PhoneThread> {
  const worker = new Worker(THREAD_ENTRY, { workerData: { profile } });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const close = async () => {
    worker.postMessage('close' satisfies PhoneThreadRequest);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  return new Promise<PhoneThread>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`The demo phone did not start within ${READY_TIMEOUT_MS / 1000} s.`)), READY_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      void worker.terminate();
      reject(error);
    };
    const onError = (error: Error) => fail(new Error(`The demo phone's thread failed: ${error.message}`));
    const onEarlyExit = (code: number) => fail(new Error(`The demo phone's thread ended (code ${code}) before the phone started.`));
    worker.once('error', onError);
    worker.once('exit', onEarlyExit);
    worker.once('message', (message: unknown) => {
      const report = PhoneThreadReadySchema.safeParse(message);
      if (!report.success) return fail(new Error("The demo phone's thread sent something other than its address."));
      if ('failed' in report.data) return fail(new Error(`The demo phone could not start: ${report.data.failed}`));
      clearTimeout(timer);
      worker.off('exit', onEarlyExit);
      worker.off('error', onError);
      const { adbAddress } = report.data.ready;
      // From now on a crash of the phone shows up as failed tasks on it; say why once.
      worker.once('error', (error) => process.emitWarning(`The demo phone ${adbAddress} stopped: ${error.message}`));
      resolve({ adbAddress, control: controlOver(worker, adbAddress), close });
    });
  });
}

/** Starts `count` demo phones of their own for the suite, each on a thread, and connects them to the adb server; close() undoes both. */
export async function startEvalPhones(adb: AdbClient, count: number, profile: LatencyProfileName = 'instant') {
  const threads: PhoneThread[] = [];
  const close = async () => {
    await Promise.all(threads.map((thread) => adb.disconnectDevice(thread.adbAddress, { timeoutMs: 3000 }).catch(() => undefined)));
    await Promise.all(threads.map((thread) => thread.close()));
  };
  // All at once: each thread loads and starts its phone on its own, and the suite waits for the last one.
  const started = await Promise.allSettled(
    Array.from({ length: count }, async () => {
      const thread = await startPhoneThread(profile);
      threads.push(thread);
      await adb.connectDevice(thread.adbAddress, { timeoutMs: 10_000 });
      await waitUntilListed(adb, thread.adbAddress);
    }),
  );
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  const phones: EvalPhone[] = threads.map((thread) => ({
    serial: thread.adbAddress,
    async prepare(seed, faults) {
      await thread.control('POST /reset', seed ?? {});
      for (const fault of faults ?? []) await thread.control('POST /faults', fault);
    },
    state: () => thread.control('GET /state'),
  }));
  return { phones, close };
}
