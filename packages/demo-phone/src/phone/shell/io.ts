import type { ShellInput } from '../../phone-contract';

/** A command's standard input: bytes that may still be arriving (adb stdin) or already complete (a pipe). */
export type CommandInput = ShellInput;

export function bufferInput(data: Buffer = Buffer.alloc(0)): CommandInput {
  return {
    async *chunks() {
      if (data.length > 0) yield data;
    },
    readAll: () => Promise.resolve(data),
  };
}

export const EMPTY_INPUT = bufferInput();

/** Where a command's output goes. */
export interface OutputSink {
  write(data: Buffer): Promise<void>;
}

export class CollectingSink implements OutputSink {
  private readonly chunks: Buffer[] = [];

  write(data: Buffer): Promise<void> {
    if (data.length > 0) this.chunks.push(data);
    return Promise.resolve();
  }

  contents(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export const DISCARD: OutputSink = { write: () => Promise.resolve() };
