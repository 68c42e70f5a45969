/**
 * A minimal TCP load balancer for tests, as a real one behaves: each new client connection goes to the next
 * backend in turn, skipping one that refuses the connection; when a backend's side drops, the client's does too.
 */
import net from 'node:net';

export interface TcpBalancer {
  readonly url: string;
  /** Connections handed to each backend so far. */
  readonly connections: number[];
  close(): Promise<void>;
}

export async function startTcpBalancer(backends: Array<{ host: string; port: number }>): Promise<TcpBalancer> {
  const connections = backends.map(() => 0);
  const open = new Set<net.Socket>();
  let next = 0;

  const connectAny = (client: net.Socket, attemptsLeft: number) => {
    if (attemptsLeft === 0 || client.destroyed) return client.destroy();
    const index = next;
    next = (next + 1) % backends.length;
    const backend = net.connect(backends[index]!.port, backends[index]!.host);
    open.add(backend);
    backend.once('close', () => open.delete(backend));
    let connected = false;
    backend.once('error', () => {
      // Refused: try the next backend; dropped after connecting: drop the client as well.
      if (connected) client.destroy();
      else connectAny(client, attemptsLeft - 1);
    });
    backend.once('connect', () => {
      connected = true;
      connections[index]! += 1;
      backend.on('close', () => client.destroy());
      client.on('close', () => backend.destroy());
      client.pipe(backend);
      backend.pipe(client);
      client.resume();
    });
  };

  const server = net.createServer((client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.on('error', () => undefined);
    client.pause();
    connectAny(client, backends.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
