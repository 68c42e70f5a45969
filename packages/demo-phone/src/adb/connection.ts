import type { Socket } from 'node:net';
import {
  Command,
  DEVICE_MAX_PAYLOAD,
  encodePacket,
  PacketFormatError,
  PacketParser,
  VERSION_SKIP_CHECKSUM,
  type Packet,
} from './packet';
import { AdbStream, type ServiceStream, type StreamTransport } from './stream';

/** Runs one accepted service on its stream. */
export type ServiceHandler = (stream: ServiceStream) => Promise<void>;

export interface ConnectionOptions {
  banner: string;
  /** The handler for a service name, or undefined to refuse it. */
  route(service: string): ServiceHandler | undefined;
  /** Asked before each OPEN; true drops the whole TCP connection instead (fault injection). */
  dropOnOpen(): boolean;
  onError?(error: unknown): void;
}

/**
 * One TCP connection from an adb server, seen from the device: answers the server's CNXN (never asks for AUTH),
 * then multiplexes streams. Everything is torn down when the socket goes away, whatever the reason.
 */
export class AdbDeviceConnection implements StreamTransport {
  private readonly parser = new PacketParser(DEVICE_MAX_PAYLOAD);
  private readonly streams = new Map<number, AdbStream>();
  private nextLocalId = 1;
  private online = false;
  private version = VERSION_SKIP_CHECKSUM;
  maxPayload = DEVICE_MAX_PAYLOAD;
  readonly closed: Promise<void>;

  constructor(
    private readonly socket: Socket,
    private readonly options: ConnectionOptions,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => this.receive(data));
    socket.on('error', () => socket.destroy());
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.online = false;
        this.resetStreams();
        resolve();
      });
    });
  }

  get openStreams(): number {
    return this.streams.size;
  }

  destroy(): void {
    this.socket.destroy();
  }

  send(command: number, arg0: number, arg1: number, payload: Buffer = Buffer.alloc(0)): void {
    if (this.socket.destroyed) return;
    const packet: Packet = { command, arg0, arg1, payload };
    this.socket.write(encodePacket(packet, this.version < VERSION_SKIP_CHECKSUM));
  }

  forget(stream: AdbStream): void {
    if (this.streams.get(stream.localId) === stream) this.streams.delete(stream.localId);
  }

  private receive(data: Buffer): void {
    let packets: Packet[];
    try {
      packets = this.parser.push(data);
    } catch (error) {
      // A bad header means the byte stream is out of step: like adbd, give up on the connection.
      if (error instanceof PacketFormatError) this.options.onError?.(error);
      this.socket.destroy();
      return;
    }
    for (const packet of packets) {
      if (this.socket.destroyed) return;
      this.handle(packet);
    }
  }

  private handle(packet: Packet): void {
    switch (packet.command) {
      case Command.CNXN:
        this.handleConnect(packet);
        return;
      case Command.OPEN:
        if (this.online && packet.arg0 !== 0 && packet.arg1 === 0) this.handleOpen(packet);
        return;
      case Command.OKAY: {
        const opening = this.streams.get(packet.arg1);
        if (opening && opening.remoteId === 0 && packet.arg0 !== 0) opening.handleOpenAccepted(packet.arg0);
        else this.streamFor(packet)?.handleOkay();
        return;
      }
      case Command.WRTE:
        this.streamFor(packet)?.handleWrite(packet.payload);
        return;
      case Command.CLSE: {
        const stream = this.streams.get(packet.arg1);
        // arg0 may be 0: old hosts used CLSE(0, id) for ordinary closes too.
        if (stream && (packet.arg0 === 0 || packet.arg0 === stream.remoteId)) stream.handleRemoteClose();
        return;
      }
      default:
        // AUTH (we never ask for it) and unknown commands are ignored.
        return;
    }
  }

  private handleConnect(packet: Packet): void {
    // A repeated CNXN restarts the session: every old stream is gone.
    this.resetStreams();
    this.version = Math.min(packet.arg0, VERSION_SKIP_CHECKSUM);
    this.maxPayload = Math.max(1, Math.min(packet.arg1, DEVICE_MAX_PAYLOAD));
    this.online = true;
    this.send(Command.CNXN, VERSION_SKIP_CHECKSUM, DEVICE_MAX_PAYLOAD, Buffer.from(this.options.banner));
  }

  private handleOpen(packet: Packet): void {
    if (this.options.dropOnOpen()) {
      this.socket.destroy();
      return;
    }
    const service = packet.payload.toString('utf8').replace(/\0$/, '');
    const handler = this.options.route(service);
    if (!handler) {
      this.send(Command.CLSE, 0, packet.arg0);
      return;
    }
    const stream = new AdbStream(this.allocateId(), packet.arg0, service, this);
    this.streams.set(stream.localId, stream);
    this.send(Command.OKAY, stream.localId, stream.remoteId);
    handler(stream)
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => stream.close());
  }

  /** Opens a stream to the host (`tcp:PORT` for a reverse forward); rejects when the host refuses it. */
  async openToHost(service: string): Promise<ServiceStream> {
    if (!this.online) throw new Error('the adb connection is not online');
    const stream = new AdbStream(this.allocateId(), 0, service, this);
    this.streams.set(stream.localId, stream);
    this.send(Command.OPEN, stream.localId, 0, Buffer.from(`${service}\0`));
    await stream.opened();
    return stream;
  }

  private streamFor(packet: Packet): AdbStream | undefined {
    const stream = this.streams.get(packet.arg1);
    return stream && stream.remoteId === packet.arg0 ? stream : undefined;
  }

  private allocateId(): number {
    do {
      this.nextLocalId = this.nextLocalId >= 0x7fffffff ? 1 : this.nextLocalId + 1;
    } while (this.streams.has(this.nextLocalId));
    return this.nextLocalId;
  }

  private resetStreams(): void {
    for (const stream of [...this.streams.values()]) stream.destroy();
    this.streams.clear();
  }
}
