import { Readable } from 'node:stream';

/**
 * The largest DATA message adbd accepts in a sync push (SYNC_DATA_MAX in adb's file_sync_protocol.h); a larger one
 * ends the push with "oversize data message". adbkit sends whatever one `read()` of the source returns as one
 * message, so the source it gets must never hand out more than this at once.
 */
export const SYNC_DATA_MAX = 64 * 1024;

/** What a push can send: bytes in memory, or a stream of them (a file's read stream, a download). */
export type PushSource = Uint8Array | AsyncIterable<Uint8Array | string>;

async function* slices(source: PushSource): AsyncGenerator<Buffer> {
  const pieces = source instanceof Uint8Array ? [source] : source;
  for await (const piece of pieces) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    for (let offset = 0; offset < bytes.length; offset += SYNC_DATA_MAX) yield bytes.subarray(offset, offset + SYNC_DATA_MAX);
  }
}

/**
 * A byte stream (not an object stream, whose one `read()` can return a whole file) of the source in slices of at
 * most SYNC_DATA_MAX, with no more than that buffered: every read adbkit makes is a legal DATA message.
 */
export function syncPushStream(source: PushSource): Readable {
  return Readable.from(slices(source), { objectMode: false, highWaterMark: SYNC_DATA_MAX });
}
