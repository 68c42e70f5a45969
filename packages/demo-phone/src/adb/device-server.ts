import { createServer, type Server, type Socket } from 'node:net';
import type { AdbPhone } from '../phone-contract';
import { deviceBanner } from './banner';
import { AdbDeviceConnection, type ServiceHandler } from './connection';
import { parseServiceRequest } from './service-request';
import { runFramebufferService } from './services/framebuffer';
import { ReverseForwards } from './services/reverse';
import { runShellService } from './services/shell';
import { runSyncService } from './services/sync';

export interface AdbDeviceServerOptions {
  /** Called with errors that were contained (a service that threw, a malformed packet). */
  onError?(error: unknown): void;
}

/**
 * The TCP endpoint `adb connect HOST:PORT` talks to. Every accepted connection is an independent transport
 * onto the same phone (a second adb server may connect too).
 */
export class AdbDeviceServer {
  private readonly server: Server;
  private readonly connections = new Set<AdbDeviceConnection>();
  private dropArmed = false;
  private readonly reverse: ReverseForwards | undefined;

  constructor(
    private readonly phone: AdbPhone,
    private readonly options: AdbDeviceServerOptions = {},
  ) {
    this.server = createServer((socket) => this.accept(socket));
    this.reverse = phone.loopback ? new ReverseForwards(phone.loopback) : undefined;
  }

  /** Starts listening; resolves with the bound port. */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /** Fault: the next OPEN on any connection drops that TCP connection instead of running the service. */
  armConnectionDrop(): void {
    this.dropArmed = true;
  }

  get connectionDropArmed(): boolean {
    return this.dropArmed;
  }

  disarmConnectionDrop(): void {
    this.dropArmed = false;
  }

  /** Live transports and their open streams, for leak checks. */
  stats(): { connections: number; streams: number } {
    let streams = 0;
    for (const connection of this.connections) streams += connection.openStreams;
    return { connections: this.connections.size, streams };
  }

  /** Stops listening and drops every connection. */
  async close(): Promise<void> {
    const closing = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const connections = [...this.connections];
    for (const connection of connections) connection.destroy();
    await Promise.all([closing, ...connections.map((connection) => connection.closed)]);
  }

  private accept(socket: Socket): void {
    const connection: AdbDeviceConnection = new AdbDeviceConnection(socket, {
      banner: deviceBanner(this.phone.identity),
      route: (service): ServiceHandler | undefined => this.route(service, connection),
      dropOnOpen: () => {
        if (!this.dropArmed) return false;
        this.dropArmed = false;
        return true;
      },
      onError: this.options.onError,
    });
    this.connections.add(connection);
    void connection.closed.then(() => this.connections.delete(connection));
  }

  private route(service: string, connection: AdbDeviceConnection): ServiceHandler | undefined {
    const request = parseServiceRequest(service);
    switch (request.kind) {
      case 'shell':
        return (stream) => runShellService(stream, this.phone, request);
      case 'sync':
        return (stream) => runSyncService(stream, this.phone.fs);
      case 'framebuffer': {
        const capture = this.phone.framebuffer?.bind(this.phone);
        return capture && ((stream) => runFramebufferService(stream, capture));
      }
      case 'reverse': {
        const reverse = this.reverse;
        return reverse && ((stream) => reverse.handle(stream, request.request, connection));
      }
      case 'local-abstract': {
        const accept = this.phone.localSockets?.acceptor(request.name);
        return accept && ((stream) => accept(stream));
      }
      case 'unsupported':
        return undefined;
    }
  }
}
