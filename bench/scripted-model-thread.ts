// The scripted model (the suite's script behind the Anthropic fake) on a worker thread of its own: a real model
// answers from another machine, so its share of the work must not sit on the host's thread the benchmark measures.
import { parentPort } from 'node:worker_threads';
import { startProviderFake } from '../test/fakes/index';
import { suitePolicy } from '../test/fakes/suite-agent';
import { slowedModel } from '../test/fakes/wifi-model';

/** What the thread says once it listens. */
export interface ScriptedModelAddress {
  baseURL: string;
  apiKey: string;
}

/** Sent before each suite run: forget the conversations of the last one, and hold each answer back this long. */
export interface NewRun {
  kind: 'new-run';
  answerDelayMs: number;
}
export const NEW_RUN = 'new-run';
export const CLOSE = 'close';

if (parentPort) {
  const port = parentPort;
  let policy = suitePolicy();
  const fake = await startProviderFake('anthropic', (turn) => policy(turn));
  port.on('message', (message: NewRun | typeof CLOSE) => {
    if (message === CLOSE) void fake.close().then(() => port.close());
    else if (message.kind === NEW_RUN) {
      const { answerDelayMs } = message;
      policy = answerDelayMs > 0 ? slowedModel(suitePolicy(), () => answerDelayMs) : suitePolicy();
      port.postMessage(NEW_RUN);
    }
  });
  port.postMessage({ baseURL: fake.baseURL, apiKey: fake.apiKey } satisfies ScriptedModelAddress);
}
