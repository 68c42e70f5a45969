import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import * as pixels from './pixels';
import type { EncodedPixels, ScreenshotEncoding } from './pixels';

/**
 * PNG screenshots are encoded in a worker thread of their own: a decode is ~10 ms of JavaScript that would otherwise
 * hold up the app's event loop, and a PNG of another kind than `screencap -p` sends hands ~10 MB of fresh pixels from
 * libvips to JavaScript, which on the app's large heap V8 answers with full collections. The worker keeps one set of
 * decode memory per encode in flight (see pixels.ts). It runs the very functions of pixels.ts, from their source text,
 * so it needs no separate build entry under Electron, tsx or Vitest (a bundler may rename them, hence
 * `encodePng.name`).
 */

interface Request {
  id: number;
  png: Uint8Array<ArrayBuffer>;
  encoding: ScreenshotEncoding;
}

/** How long the worker keeps its decode memory after the last screenshot. */
const PNG_MEMORY_KEPT_MS = 60_000;

type Reply = { id: number; image: EncodedPixels } | { id: number; error: string };

const workerSource = (): string => `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const sharp = require(workerData.sharpPath);
const zlib = require('node:zlib');
// tsx compiles with esbuild's keepNames, which wraps inner named functions in __name().
const __name = (target) => target;
${Object.values(pixels).filter((value) => typeof value === 'function').map(String).join('\n')}
// Decode memory (~18 MB a set at 1080x2400) is kept between screenshots and let go after a while without any.
const spareMemory = [];
let idle = null;
parentPort.on('message', ({ id, png, encoding }) => {
  const memory = spareMemory.pop() ?? ${pixels.createPngMemory.name}(zlib);
  ${pixels.encodePng.name}(sharp, png, encoding, memory).then(
    (image) => parentPort.postMessage({ id, image }),
    (error) => parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  ).finally(() => {
    spareMemory.push(memory);
    clearTimeout(idle);
    idle = setTimeout(() => (spareMemory.length = 0), ${PNG_MEMORY_KEPT_MS}).unref();
  });
});
`;

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, { resolve: (image: EncodedPixels) => void; reject: (error: Error) => void }>();

function startWorker(): Worker {
  const started = new Worker(workerSource(), { eval: true, workerData: { sharpPath: createRequire(import.meta.url).resolve('sharp') } });
  // Only a worker with work in hand keeps the process alive.
  started.unref();
  started.on('message', (reply: Reply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
    if (!waiting) return;
    if ('error' in reply) waiting.reject(new Error(reply.error));
    else waiting.resolve({ ...reply.image, bytes: Buffer.from(reply.image.bytes.buffer, reply.image.bytes.byteOffset, reply.image.bytes.length) });
  });
  const fail = (error: Error) => {
    if (worker === started) worker = null;
    for (const [id, waiting] of pending) {
      pending.delete(id);
      waiting.reject(error);
    }
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`the screenshot worker stopped (exit code ${code})`)));
  return started;
}

/**
 * Starts the worker ahead of its first PNG, so that its start-up (100-300 ms) overlaps the phone's `screencap -p`
 * instead of following it. It keeps no process alive while idle.
 */
export function warmUpPngWorker(): void {
  worker ??= startWorker();
}

/** Whether the worker is running (started and not died since). */
export function pngWorkerRunning(): boolean {
  return worker !== null;
}

/** Decodes, downscales and encodes a PNG in the worker (started on first use, restarted if it ever dies). */
export function encodePngInWorker(png: Buffer, encoding: ScreenshotEncoding): Promise<EncodedPixels> {
  warmUpPngWorker();
  const id = nextId++;
  // A copy of its own (the PNG usually sits in a receive buffer that is reused), moved to the worker, not cloned.
  const request: Request = { id, png: new Uint8Array(png), encoding: { ...encoding } };
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker!.ref();
    worker!.postMessage(request, [request.png.buffer]);
  });
}
