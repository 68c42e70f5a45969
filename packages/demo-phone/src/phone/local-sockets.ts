import type { PhoneLocalConnection, PhoneLocalSockets } from '../phone-contract';

/** A listening abstract socket: connections wait in its backlog until accepted. */
export class LocalServerSocket {
  private readonly backlog: PhoneLocalConnection[] = [];
  private waiter: ((connection: PhoneLocalConnection) => void) | undefined;

  constructor(
    readonly name: string,
    private readonly namespace: LocalSocketNamespace,
  ) {}

  /** The next connection; rejects with the signal's reason when aborted first. */
  accept(signal: AbortSignal): Promise<PhoneLocalConnection> {
    const queued = this.backlog.shift();
    if (queued) return Promise.resolve(queued);
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.waiter = undefined;
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiter = (connection) => {
        signal.removeEventListener('abort', onAbort);
        this.waiter = undefined;
        resolve(connection);
      };
    });
  }

  /** Stops listening; connections never accepted are closed. */
  close(): void {
    this.namespace.unbind(this);
    for (const connection of this.backlog.splice(0)) connection.close();
  }

  /** Called by the namespace for a new connection. */
  offer(connection: PhoneLocalConnection): void {
    if (this.waiter) this.waiter(connection);
    else this.backlog.push(connection);
  }
}

/** The phone's abstract socket names (`localabstract:` for adbd): one server per name. */
export class LocalSocketNamespace implements PhoneLocalSockets {
  private readonly servers = new Map<string, LocalServerSocket>();

  /** Binds `name`; throws like Android's LocalServerSocket when the name is taken. */
  listen(name: string): LocalServerSocket {
    if (this.servers.has(name)) throw new Error('Address already in use');
    const server = new LocalServerSocket(name, this);
    this.servers.set(name, server);
    return server;
  }

  unbind(server: LocalServerSocket): void {
    if (this.servers.get(server.name) === server) this.servers.delete(server.name);
  }

  acceptor(name: string): ((connection: PhoneLocalConnection) => Promise<void>) | undefined {
    const server = this.servers.get(name);
    if (!server) return undefined;
    return (connection) => {
      server.offer(connection);
      return new Promise((resolve) => {
        if (connection.signal.aborted) resolve();
        else connection.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    };
  }
}
