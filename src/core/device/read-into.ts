import { connect } from 'node:net';

/** Where the adb server listens. */
export interface AdbServerSocketAddress {
  host: string;
  port: number;
}

/** Reads of the status replies and of output beyond the target land here first. */
const SPILL_SIZE = 64 * 1024;

/** An adb server refusal, in the shape adbkit gives it (so `AdbClient` words it like any other). */
function failure(text: string): Error {
  return Object.assign(new Error(`Failure: '${text}'`), { name: 'FailError' });
}

/**
 * Opens `service` on a device through the adb server (`exec:COMMAND` for raw output without a pty, `shell:COMMAND`
 * for the legacy shell that adbkit uses) and receives the output straight into `target`: the socket reads into it,
 * so a ~10 MB raw screencap costs no allocation, no copy and no garbage, and a small output costs a fraction of the
 * host CPU adbkit's promise and stream layers take per call. Output beyond `target` is still kept (then a new
 * buffer holds it all). Resolves with the written part when the device closes the stream; the caller destroys the
 * socket through `signal` to abort.
 */
export function readInto(server: AdbServerSocketAddress, serial: string, service: string, target: Buffer, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const spill = Buffer.allocUnsafe(SPILL_SIZE);
    const requests = [`host:transport:${serial}`, service];
    let replies = Buffer.alloc(0);
    let streaming = false;
    let written = 0;
    let overflow: Buffer[] | null = null;
    let settled = false;

    const receive = (data: Buffer) => {
      if (!overflow && written + data.length <= target.length) {
        if (data.buffer !== target.buffer) data.copy(target, written);
        written += data.length;
      } else {
        (overflow ??= [target.subarray(0, written)]).push(Buffer.from(data));
      }
    };
    /** Status replies: `OKAY`, or `FAIL` and a hex length and the reason. Returns false while incomplete. */
    const readReplies = (): boolean => {
      while (requests.length) {
        if (replies.length < 4) return false;
        const status = replies.toString('latin1', 0, 4);
        if (status === 'FAIL') {
          const length = replies.length >= 8 ? parseInt(replies.toString('latin1', 4, 8), 16) : NaN;
          if (Number.isNaN(length) || replies.length < 8 + length) return false;
          throw failure(replies.toString('utf8', 8, 8 + length));
        }
        if (status !== 'OKAY') throw new Error(`the adb server answered "${status}" instead of OKAY`);
        replies = replies.subarray(4);
        requests.shift();
        if (requests.length) send(requests[0]!);
      }
      streaming = true;
      if (replies.length) receive(replies);
      return true;
    };
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      if (error) reject(error);
      else if (!streaming) reject(new Error('the adb server closed the connection before the command started'));
      else resolve(overflow ? Buffer.concat(overflow) : target.subarray(0, written));
    };

    const socket = connect({
      host: server.host,
      port: server.port,
      onread: {
        // While streaming and there is room, the kernel copies the output directly into `target`.
        buffer: () => (streaming && !overflow && written < target.length ? target.subarray(written) : spill),
        callback: (bytes, buffer) => {
          const data = Buffer.from(buffer.buffer, buffer.byteOffset, bytes);
          if (streaming) receive(data);
          else {
            replies = Buffer.concat([replies, data]);
            try {
              readReplies();
            } catch (error) {
              finish(error as Error);
            }
          }
          return true;
        },
      },
    });
    const send = (request: string) => socket.write(`${Buffer.byteLength(request).toString(16).padStart(4, '0')}${request}`);
    const onAbort = () => finish(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => send(requests[0]!));
    socket.once('end', () => finish());
    socket.once('close', () => finish());
    socket.once('error', (error) => finish(error));
  });
}
