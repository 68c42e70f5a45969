// The body of a demo phone's worker thread (loaded by demo-phone-thread.mjs). The suite's phones dump, render and
// answer adb on threads of their own, so the host's thread (runner, adb client, planner) has a core to itself; the
// suite seeds and reads a phone through the control API's routes relayed over the thread's port, not over HTTP.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { z } from 'zod';
import { startDemoDevice } from '../main/app/demo-device';
import type { ControlRoute } from '../virtual-device/control-api';
import type { LatencyProfileName, VirtualDevice } from '../virtual-device/index';

/** What the thread says once: where the phone listens, or why it could not start. */
export const PhoneThreadReadySchema = z.union([z.object({ ready: z.object({ adbAddress: z.string() }) }), z.object({ failed: z.string() })]);

/** A control route to run, or `close` (the phone stops and the thread ends). */
export type PhoneThreadRequest = { id: number; route: ControlRoute; body?: unknown } | 'close';

/** The answer to request `id`: the route's reply, or its refusal in words. */
export const PhoneThreadReplySchema = z.union([
  z.object({ id: z.number(), reply: z.unknown() }),
  z.object({ id: z.number(), error: z.string() }),
]);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function serve(port: MessagePort, profile: LatencyProfileName): Promise<void> {
  let device: VirtualDevice;
  try {
    device = await startDemoDevice(profile);
  } catch (error) {
    port.postMessage({ failed: message(error) });
    port.close();
    return;
  }
  port.on('message', (request: PhoneThreadRequest) => {
    if (request === 'close') {
      void device.close().then(() => port.close());
      return;
    }
    try {
      port.postMessage({ id: request.id, reply: device.control(request.route, request.body) });
    } catch (error) {
      port.postMessage({ id: request.id, error: message(error) });
    }
  });
  port.postMessage({ ready: { adbAddress: device.adbAddress } });
}

if (parentPort) await serve(parentPort, (workerData as { profile: LatencyProfileName }).profile);
