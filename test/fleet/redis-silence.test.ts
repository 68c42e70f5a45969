// A Redis address where something takes the connection and never answers is told as silence, with its own code, never
// as the words of the timer that gave up on it.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { reachRedis, RedisUrlError } from '../../src/fleet/redis';
import { saidWords } from '../../src/shared/supervision-words';
import { wordsFor } from '../../src/shared/i18n/translate';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A port that accepts connections and reads them, and answers nothing. */
async function silentPort(): Promise<number> {
  server = createServer((socket) => {
    sockets.push(socket);
    socket.resume();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe("the fleet's Redis that does not answer", () => {
  it('is told as silence with its own code, in either language', async () => {
    const port = await silentPort();
    const error = await reachRedis(new URL(`redis://:hunter2@127.0.0.1:${port}`), 1_000).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RedisUrlError);
    const refused = error as RedisUrlError;
    expect(refused.said.code).toBe('fleetRedis.noAnswer');
    expect(refused.message).toBe(`the fleet's Redis at redis://127.0.0.1:${port} did not answer within 1 s; check the address, that Redis runs there, and its password`);
    expect(saidWords(refused.message, refused.said, wordsFor('zh-CN'))).toContain('秒内没有应答');
    expect(JSON.stringify(refused.said) + refused.message).not.toContain('hunter2');
    expect(refused.message).not.toContain('no answer');
  });
});
