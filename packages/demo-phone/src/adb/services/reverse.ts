import type { PhoneLoopback, PhoneSocket } from '../../phone-contract';
import type { ServiceStream } from '../stream';

/** What a reverse forward needs of the adb connection that asked for it. */
export interface HostOpener {
  openToHost(service: string): Promise<ServiceStream>;
  readonly closed: Promise<void>;
}

interface ReverseForward {
  devicePort: number;
  remote: string;
  owner: HostOpener;
}

/**
 * The device's reverse forwards (`adb reverse`): each serves a port on the phone's loopback by opening a
 * stream to the host, which connects it to the host port. A forward dies with the connection that made it.
 */
export class ReverseForwards {
  private readonly forwards = new Map<number, ReverseForward>();

  constructor(private readonly loopback: PhoneLoopback) {}

  /** Runs one `reverse:` request and answers as adbd does (OKAY [+ port], or FAIL with a reason). */
  async handle(stream: ServiceStream, request: string, owner: HostOpener): Promise<void> {
    const reply = this.execute(request, owner);
    await stream.write(reply);
    stream.close();
  }

  private execute(request: string, owner: HostOpener): Buffer {
    if (request === 'list-forward') {
      const lines = [...this.forwards.values()].map((forward) => `host tcp:${forward.devicePort} ${forward.remote}\n`).join('');
      // adbd answers the listing without an OKAY first (only the host side adds one).
      return protocolString(lines);
    }
    if (request === 'killforward-all') {
      for (const port of [...this.forwards.keys()]) this.remove(port);
      return okay();
    }
    if (request.startsWith('killforward:')) {
      const local = request.slice('killforward:'.length);
      const port = tcpPort(local);
      if (port === undefined || !this.forwards.has(port)) return fail(`listener '${local}' not found`);
      this.remove(port);
      return okay();
    }
    if (request.startsWith('forward:')) {
      let spec = request.slice('forward:'.length);
      const noRebind = spec.startsWith('norebind:');
      if (noRebind) spec = spec.slice('norebind:'.length);
      const [local = '', remote = ''] = spec.split(';');
      if (remote === '') return fail('bad forward: ' + spec);
      let port = tcpPort(local);
      if (port === undefined) return fail(`cannot bind listener: unsupported socket spec '${local}'`);
      if (port === 0) port = this.loopback.freePort();
      if (this.forwards.has(port)) {
        if (noRebind) return fail('cannot rebind existing socket');
        this.remove(port);
      }
      this.add({ devicePort: port, remote, owner });
      // Since Android 8 adbd answers every tcp: forward with the port it listens on.
      return Buffer.concat([okay(), protocolString(String(port))]);
    }
    return fail(`unknown reverse command: ${request}`);
  }

  private add(forward: ReverseForward): void {
    this.forwards.set(forward.devicePort, forward);
    this.loopback.listen(forward.devicePort, (): Promise<PhoneSocket> => forward.owner.openToHost(forward.remote));
    void forward.owner.closed.then(() => {
      if (this.forwards.get(forward.devicePort) === forward) this.remove(forward.devicePort);
    });
  }

  private remove(port: number): void {
    this.forwards.delete(port);
    this.loopback.unlisten(port);
  }
}

function tcpPort(spec: string): number | undefined {
  const match = /^tcp:(\d{1,5})$/.exec(spec);
  const port = match ? Number(match[1]) : Number.NaN;
  return Number.isInteger(port) && port <= 65535 ? port : undefined;
}

const okay = (): Buffer => Buffer.from('OKAY');

function protocolString(text: string): Buffer {
  const body = Buffer.from(text);
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(4, '0')), body]);
}

function fail(message: string): Buffer {
  return Buffer.concat([Buffer.from('FAIL'), protocolString(message)]);
}
