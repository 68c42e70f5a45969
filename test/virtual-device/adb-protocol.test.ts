import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdbDeviceServer } from '../../packages/demo-phone/src/adb/device-server';
import type { AdbPhone } from '../../packages/demo-phone/src/phone-contract';
import { VirtualFileSystem } from '../../packages/demo-phone/src/phone/file-system';
import { A, byteSum, RawAdbHost } from '../support/raw-adb-host';

/** A stand-in phone whose commands exercise the transport: big output, a hang, a crash. */
function stubPhone() {
  const aborted: string[] = [];
  const phone: AdbPhone = {
    identity: { name: 'stub_name', model: 'Stub Model', device: 'stub' },
    fs: new VirtualFileSystem(),
    async shell(command, { signal }) {
      if (command === 'big') return { stdout: Buffer.alloc(10_000, 0x61), stderr: Buffer.from('warn\n'), exitCode: 5 };
      if (command === 'boom') throw new Error('phone broke');
      if (command === 'hang') {
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            aborted.push(command);
            reject(new Error('aborted'));
          }),
        );
      }
      return { stdout: Buffer.from(`ran ${command}\n`), stderr: Buffer.alloc(0), exitCode: 0 };
    },
  };
  return { phone, aborted };
}

/** Splits shell-protocol bytes into [id, data] packets. */
function shellPackets(bytes: Buffer): Array<{ id: number; data: Buffer }> {
  const packets: Array<{ id: number; data: Buffer }> = [];
  for (let offset = 0; offset < bytes.length; ) {
    const length = bytes.readUInt32LE(offset + 1);
    packets.push({ id: bytes[offset]!, data: bytes.subarray(offset + 5, offset + 5 + length) });
    offset += 5 + length;
  }
  return packets;
}

function syncRequest(id: string, body: Buffer | string, lengthOverride?: number): Buffer {
  const data = typeof body === 'string' ? Buffer.from(body) : body;
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(lengthOverride ?? data.length, 4);
  return Buffer.concat([header, data]);
}

describe('adb transport, device side (raw host)', () => {
  let server: AdbDeviceServer;
  let port: number;
  let stub: ReturnType<typeof stubPhone>;
  let containedErrors: unknown[];
  const hosts: RawAdbHost[] = [];
  const host = async () => {
    const h = await RawAdbHost.connect(port);
    hosts.push(h);
    return h;
  };

  beforeEach(async () => {
    stub = stubPhone();
    containedErrors = [];
    server = new AdbDeviceServer(stub.phone, { onError: (error) => containedErrors.push(error) });
    port = await server.listen(0, '127.0.0.1');
  });

  afterEach(async () => {
    for (const h of hosts.splice(0)) h.end();
    await server.close();
  });

  it('Scenario: The device answers CNXN with its banner and never asks for AUTH', async () => {
    const h = await host();
    const reply = await h.handshake();
    expect(reply.arg0).toBe(0x01000001);
    expect(reply.arg1).toBe(1024 * 1024);
    expect(reply.payload.toString()).toBe(
      'device::ro.product.name=stub_name;ro.product.model=Stub Model;ro.product.device=stub;features=shell_v2,stat_v2,fixed_push_mkdir',
    );
    expect(reply.checksum).toBe(0);
    expect(await h.next(100)).toBeUndefined(); // no AUTH follows
  });

  it('Scenario: A version 0x01000000 host gets checksummed packets within its maximum payload', async () => {
    const h = await host();
    const reply = await h.handshake(0x01000000, 4096);
    expect(reply.checksum).toBe(byteSum(reply.payload));

    const deviceId = await h.open(1, 'shell,v2,raw:big');
    expect(deviceId).toBeDefined();
    const first = await h.expect(A.WRTE);
    expect(first.payload.length).toBeLessThanOrEqual(4096);
    expect(first.checksum).toBe(byteSum(first.payload));
    // Flow control: nothing more until the host OKAYs the WRTE in flight.
    expect(await h.next(150)).toBeUndefined();
    h.send(A.OKAY, 1, deviceId!);
    const rest = await h.readUntilClose(1, deviceId!);
    const packets = shellPackets(Buffer.concat([first.payload, rest]));
    const stdout = Buffer.concat(packets.filter((p) => p.id === 1).map((p) => p.data));
    const stderr = Buffer.concat(packets.filter((p) => p.id === 2).map((p) => p.data));
    expect(stdout.equals(Buffer.alloc(10_000, 0x61))).toBe(true);
    expect(stderr.toString()).toBe('warn\n');
    expect(packets.at(-1)).toEqual({ id: 3, data: Buffer.of(5) });
  });

  it('every WRTE stays within the negotiated maximum and carries its checksum', async () => {
    const h = await host();
    await h.handshake(0x01000000, 4096);
    const deviceId = await h.open(1, 'shell:big');
    const sizes: number[] = [];
    const parts: Buffer[] = [];
    for (;;) {
      const packet = await h.next();
      if (!packet || packet.command === A.CLSE) break;
      expect(packet.checksum).toBe(byteSum(packet.payload));
      sizes.push(packet.payload.length);
      parts.push(packet.payload);
      h.send(A.OKAY, 1, deviceId!);
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4096);
    // Legacy shell: stdout then stderr, merged, no exit code.
    expect(Buffer.concat(parts).toString()).toBe('a'.repeat(10_000) + 'warn\n');
  });

  it('Scenario: Unknown services are refused with CLSE and the connection stays usable', async () => {
    const h = await host();
    await h.handshake();
    const refused = await h.next(0).then(() => h.open(7, 'framebuffer:'));
    expect(refused).toBeUndefined();
    expect(await h.open(8, 'reboot:')).toBeUndefined();
    const deviceId = await h.open(9, 'shell:hi');
    expect((await h.readUntilClose(9, deviceId!)).toString()).toBe('ran hi\n');
  });

  it('Scenario: Closing a stream from the host cancels its command', async () => {
    const h = await host();
    await h.handshake();
    const deviceId = await h.open(3, 'shell,v2,raw:hang');
    h.send(A.CLSE, 3, deviceId!);
    const echo = await h.expect(A.CLSE);
    expect(echo).toMatchObject({ arg0: deviceId, arg1: 3 });
    await expect.poll(() => stub.aborted).toEqual(['hang']);
    expect(server.stats().streams).toBe(0);
  });

  it('a phone that throws is reported as a failing command, not a broken transport', async () => {
    const h = await host();
    await h.handshake();
    const deviceId = await h.open(4, 'shell,v2,raw:boom');
    const packets = shellPackets(await h.readUntilClose(4, deviceId!));
    expect(packets.find((p) => p.id === 2)?.data.toString()).toBe('virtual device: phone broke\n');
    expect(packets.at(-1)).toEqual({ id: 3, data: Buffer.of(1) });
  });

  it('Scenario: A malformed packet drops only that connection', async () => {
    const bad = await host();
    await bad.handshake();
    bad.socket.write(Buffer.alloc(24, 0x41)); // magic does not match the command
    await bad.closed;
    expect(String(containedErrors[0])).toContain('bad magic');
    const good = await host();
    await good.handshake();
    const deviceId = await good.open(1, 'shell:ok');
    expect((await good.readUntilClose(1, deviceId!)).toString()).toBe('ran ok\n');
  });

  it('ignores OPEN before CNXN and CLSE for unknown streams', async () => {
    const h = await host();
    h.send(A.OPEN, 1, 0, 'shell:early\0');
    expect(await h.next(150)).toBeUndefined();
    await h.handshake();
    h.send(A.CLSE, 99, 12345);
    const deviceId = await h.open(2, 'shell:later');
    expect((await h.readUntilClose(2, deviceId!)).toString()).toBe('ran later\n');
  });

  it('a repeated CNXN restarts the session and ends the old streams', async () => {
    const h = await host();
    await h.handshake();
    await h.open(5, 'shell:hang');
    await h.handshake();
    await expect.poll(() => stub.aborted).toEqual(['hang']);
    expect(server.stats()).toEqual({ connections: 1, streams: 0 });
  });

  it('Scenario: Sync requests that span and share WRTEs are all answered', async () => {
    const h = await host();
    await h.handshake();
    const deviceId = await h.open(1, 'sync:');
    const content = Buffer.from('hello from the host\n'.repeat(5000));
    const dataChunks = [content.subarray(0, 60_000), content.subarray(60_000)].map((chunk) =>
      Buffer.concat([syncRequest('DATA', '', chunk.length), chunk]),
    );
    const done = Buffer.alloc(8);
    done.write('DONE', 0, 'latin1');
    done.writeUInt32LE(1_700_000_000, 4);
    const input = Buffer.concat([
      syncRequest('SEND', '/sdcard/notes/hello.txt,33188'),
      ...dataChunks,
      done,
      syncRequest('STAT', '/sdcard/notes/hello.txt'),
      syncRequest('STA2', '/sdcard/nothing-here'),
      syncRequest('LIST', '/sdcard/notes'),
      syncRequest('RECV', '/sdcard/notes/hello.txt'),
      syncRequest('QUIT', ''),
    ]);
    const output = await h.exchange(1, deviceId!, input, 1500);

    let offset = 0;
    const take = (size: number) => output.subarray(offset, (offset += size));
    expect(take(8).toString('latin1', 0, 4)).toBe('OKAY');
    const stat = take(16);
    expect(stat.toString('latin1', 0, 4)).toBe('STAT');
    expect(stat.readUInt32LE(4)).toBe(0o100666); // adbd copies the user bits to group and other
    expect(stat.readUInt32LE(8)).toBe(content.length);
    expect(stat.readUInt32LE(12)).toBe(1_700_000_000);
    const sta2 = take(72);
    expect(sta2.toString('latin1', 0, 4)).toBe('STA2');
    expect(sta2.readUInt32LE(4)).toBe(2); // ENOENT
    const names: string[] = [];
    for (;;) {
      const dent = take(20);
      if (dent.toString('latin1', 0, 4) === 'DONE') break;
      expect(dent.toString('latin1', 0, 4)).toBe('DENT');
      names.push(take(dent.readUInt32LE(16)).toString());
    }
    expect(names).toEqual(['.', '..', 'hello.txt']);
    const received: Buffer[] = [];
    for (;;) {
      const header = take(8);
      const id = header.toString('latin1', 0, 4);
      if (id === 'DONE') break;
      expect(id).toBe('DATA');
      expect(header.readUInt32LE(4)).toBeLessThanOrEqual(64 * 1024);
      received.push(take(header.readUInt32LE(4)));
    }
    expect(Buffer.concat(received).equals(content)).toBe(true);
    expect(offset).toBe(output.length);
  });

  it('Scenario: Sync failures carry the real error text and end the session', async () => {
    const h = await host();
    await h.handshake();
    const recvId = await h.open(1, 'sync:');
    const missing = await h.exchange(1, recvId!, syncRequest('RECV', '/sdcard/nope.txt'), 4096);
    expect(missing.toString('latin1', 0, 4)).toBe('FAIL');
    expect(missing.subarray(8).toString()).toBe('open failed: No such file or directory');

    const unknownId = await h.open(2, 'sync:');
    const unknown = await h.exchange(2, unknownId!, syncRequest('ZZZZ', ''), 4096);
    expect(unknown.subarray(8).toString()).toBe('unknown command 5a5a5a5a');

    const longId = await h.open(3, 'sync:');
    const tooLong = await h.exchange(3, longId!, syncRequest('STAT', '', 5000), 4096);
    expect(tooLong.subarray(8).toString()).toBe('path too long');

    const oversizeId = await h.open(4, 'sync:');
    const oversize = await h.exchange(
      4,
      oversizeId!,
      Buffer.concat([syncRequest('SEND', '/sdcard/big.bin,420'), syncRequest('DATA', Buffer.alloc(70_000))]),
      8192,
    );
    expect(oversize.subarray(8).toString()).toBe('oversize data message');
    expect(stub.phone.fs.stat('/sdcard/big.bin')).toBeUndefined();
  });

  it('Scenario: An armed connection drop closes the TCP connection on the next OPEN', async () => {
    const h = await host();
    await h.handshake();
    server.armConnectionDrop();
    expect(server.connectionDropArmed).toBe(true);
    h.send(A.OPEN, 1, 0, 'shell:x\0');
    await h.closed;
    expect(server.connectionDropArmed).toBe(false);
    const again = await host();
    await again.handshake();
    const deviceId = await again.open(2, 'shell:y');
    expect((await again.readUntilClose(2, deviceId!)).toString()).toBe('ran y\n');
  });
});
