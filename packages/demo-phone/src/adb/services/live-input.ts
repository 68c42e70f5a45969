import type { ShellInput } from '../../phone-contract';

/**
 * Input fed by a transport (the adb stream) while the command runs: `push` chunks, then `end`. One reader
 * consumes it; chunks pushed before anyone reads are kept.
 */
export class LiveInput implements ShellInput {
  private readonly queue: Buffer[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  push(chunk: Buffer): void {
    if (this.ended || chunk.length === 0) return;
    this.queue.push(chunk);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *chunks(): AsyncIterable<Buffer> {
    for (;;) {
      const next = this.queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  async readAll(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.chunks()) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
}
