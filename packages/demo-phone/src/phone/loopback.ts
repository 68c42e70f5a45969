import type { PhoneLoopback, PhoneSocket } from '../phone-contract';

/** Thrown by `connect` when nothing listens on the port. */
export class ConnectionRefused extends Error {
  readonly code = 'ECONNREFUSED';
  constructor(readonly port: number) {
    super('Connection refused');
  }
}

const FIRST_FREE_PORT = 38_001;

/** The phone's 127.0.0.1: ports served from outside (reverse forwards) that commands on the phone connect to. */
export class LoopbackNetwork implements PhoneLoopback {
  private readonly listeners = new Map<number, () => Promise<PhoneSocket>>();

  listen(port: number, connect: () => Promise<PhoneSocket>): boolean {
    if (this.listeners.has(port)) return false;
    this.listeners.set(port, connect);
    return true;
  }

  unlisten(port: number): boolean {
    return this.listeners.delete(port);
  }

  freePort(): number {
    let port = FIRST_FREE_PORT;
    while (this.listeners.has(port)) port++;
    return port;
  }

  /** Opens a connection to `port`; rejects with ConnectionRefused when nothing serves it or the far end refuses. */
  async connect(port: number): Promise<PhoneSocket> {
    const connect = this.listeners.get(port);
    if (!connect) throw new ConnectionRefused(port);
    try {
      return await connect();
    } catch {
      throw new ConnectionRefused(port);
    }
  }
}
