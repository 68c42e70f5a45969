import { Command } from './packet';

/** What a service sees of its stream: an ordered byte pipe in both directions plus a cancellation signal. */
export interface ServiceStream {
  /** Aborted once the stream is gone (host closed it, or the connection dropped). */
  readonly signal: AbortSignal;
  /** The largest WRTE payload on this connection; services size their frames with it. */
  readonly maxPayload: number;
  /** The next received bytes, or undefined once the host has closed the stream. */
  read(): Promise<Buffer | undefined>;
  /** Exactly `size` bytes, or undefined if the stream ends first. */
  readExactly(size: number): Promise<Buffer | undefined>;
  /** Queues bytes; resolves once they have been handed to the transport (backpressure). */
  write(data: Buffer): Promise<void>;
  /** Sends CLSE after everything queued has been delivered. */
  close(): void;
}

/** The part of a connection a stream needs. */
export interface StreamTransport {
  readonly maxPayload: number;
  send(command: number, arg0: number, arg1: number, payload?: Buffer): void;
  forget(stream: AdbStream): void;
}

interface WriteWaiter {
  sentTarget: number;
  resolve: () => void;
}

/**
 * One device-side stream. Flow control follows adbd: at most one WRTE in flight until the host OKAYs it,
 * and received WRTEs are OKAYed unless the service has fallen far behind reading them.
 */
export class AdbStream implements ServiceStream {
  private readonly aborter = new AbortController();
  readonly signal = this.aborter.signal;

  private sendQueue: Buffer[] = [];
  private bytesQueued = 0;
  private bytesSent = 0;
  private awaitingOkay = false;
  private writeWaiters: WriteWaiter[] = [];
  private closeRequested = false;
  private finished = false;

  private inbox: Buffer[] = [];
  private inboxBytes = 0;
  private inputEnded = false;
  private okayOwed = false;
  private dataArrived: (() => void) | undefined;

  /** For a stream the device opened: settles when the host answers the OPEN (OKAY) or refuses it (CLSE). */
  private opening: { resolve(): void; reject(error: Error): void } | undefined;

  constructor(
    readonly localId: number,
    public remoteId: number,
    readonly service: string,
    private readonly transport: StreamTransport,
  ) {}

  get maxPayload(): number {
    return this.transport.maxPayload;
  }

  get isFinished(): boolean {
    return this.finished;
  }

  write(data: Buffer): Promise<void> {
    if (this.finished || this.closeRequested || data.length === 0) return Promise.resolve();
    this.sendQueue.push(data);
    this.bytesQueued += data.length;
    const sentTarget = this.bytesQueued;
    const written = new Promise<void>((resolve) => this.writeWaiters.push({ sentTarget, resolve }));
    this.pump();
    return written;
  }

  close(): void {
    if (this.finished || this.closeRequested) return;
    this.closeRequested = true;
    this.pump();
  }

  async read(): Promise<Buffer | undefined> {
    while (this.inbox.length === 0) {
      if (this.inputEnded) return undefined;
      await this.nextArrival();
    }
    const chunk = this.inbox.shift()!;
    this.consumed(chunk.length);
    return chunk;
  }

  async readExactly(size: number): Promise<Buffer | undefined> {
    while (this.inboxBytes < size) {
      if (this.inputEnded) return undefined;
      await this.nextArrival();
    }
    const parts: Buffer[] = [];
    let needed = size;
    while (needed > 0) {
      const head = this.inbox[0]!;
      if (head.length <= needed) {
        parts.push(head);
        this.inbox.shift();
        needed -= head.length;
      } else {
        parts.push(head.subarray(0, needed));
        this.inbox[0] = head.subarray(needed);
        needed = 0;
      }
    }
    this.consumed(size);
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** Waits for the host to accept an OPEN this device sent (remoteId is 0 until then). */
  opened(): Promise<void> {
    if (this.remoteId !== 0) return Promise.resolve();
    return new Promise((resolve, reject) => (this.opening = { resolve, reject }));
  }

  /** The host accepted our OPEN under its id `remoteId`. */
  handleOpenAccepted(remoteId: number): void {
    this.remoteId = remoteId;
    this.opening?.resolve();
    this.opening = undefined;
  }

  /** Host OKAYed our last WRTE. */
  handleOkay(): void {
    this.awaitingOkay = false;
    this.pump();
  }

  /** Host sent data. */
  handleWrite(payload: Buffer): void {
    if (this.finished) return;
    if (payload.length > 0 && !this.inputEnded) {
      this.inbox.push(payload);
      this.inboxBytes += payload.length;
    }
    if (this.inboxBytes < this.backlogLimit()) this.sendOkay();
    else this.okayOwed = true;
    this.wakeReader();
  }

  /** Host closed the stream: answer with our own CLSE, as adbd does, and stop everything. */
  handleRemoteClose(): void {
    if (this.finished) return;
    if (this.opening) {
      this.opening.reject(new Error(`the host refused ${this.service}`));
      this.opening = undefined;
      this.finish();
      return;
    }
    this.transport.send(Command.CLSE, this.localId, this.remoteId);
    this.finish();
  }

  /** The connection is gone: no packets can be sent any more. */
  destroy(): void {
    this.opening?.reject(new Error('the connection to the host is gone'));
    this.opening = undefined;
    if (!this.finished) this.finish();
  }

  private pump(): void {
    if (this.finished) return;
    while (!this.awaitingOkay && this.sendQueue.length > 0) {
      const payload = this.takeFromQueue(this.transport.maxPayload);
      this.awaitingOkay = true;
      this.transport.send(Command.WRTE, this.localId, this.remoteId, payload);
      this.bytesSent += payload.length;
      this.releaseWriters();
    }
    if (this.closeRequested && !this.awaitingOkay && this.sendQueue.length === 0) {
      this.transport.send(Command.CLSE, this.localId, this.remoteId);
      this.finish();
    }
  }

  private takeFromQueue(limit: number): Buffer {
    const parts: Buffer[] = [];
    let size = 0;
    while (size < limit && this.sendQueue.length > 0) {
      const head = this.sendQueue[0]!;
      const room = limit - size;
      if (head.length <= room) {
        parts.push(head);
        this.sendQueue.shift();
        size += head.length;
      } else {
        parts.push(head.subarray(0, room));
        this.sendQueue[0] = head.subarray(room);
        size += room;
      }
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
  }

  private releaseWriters(): void {
    while (this.writeWaiters.length > 0 && this.writeWaiters[0]!.sentTarget <= this.bytesSent) {
      this.writeWaiters.shift()!.resolve();
    }
  }

  private consumed(size: number): void {
    this.inboxBytes -= size;
    if (this.okayOwed && this.inboxBytes < this.backlogLimit() && !this.finished) {
      this.okayOwed = false;
      this.sendOkay();
    }
  }

  private backlogLimit(): number {
    return 2 * this.transport.maxPayload;
  }

  private sendOkay(): void {
    this.transport.send(Command.OKAY, this.localId, this.remoteId);
  }

  private nextArrival(): Promise<void> {
    return new Promise((resolve) => {
      this.dataArrived = resolve;
    });
  }

  private wakeReader(): void {
    const wake = this.dataArrived;
    this.dataArrived = undefined;
    wake?.();
  }

  private finish(): void {
    this.finished = true;
    this.inputEnded = true;
    this.sendQueue = [];
    for (const waiter of this.writeWaiters) waiter.resolve();
    this.writeWaiters = [];
    this.aborter.abort();
    this.wakeReader();
    this.transport.forget(this);
  }
}
