import type { PhoneFileEntry, PhoneFileSystem } from '../../phone-contract';
import type { ServiceStream } from '../stream';

/** Largest DATA chunk either side may send (SYNC_DATA_MAX). */
export const SYNC_DATA_MAX = 64 * 1024;
const MAX_PATH_LENGTH = 1024;

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

/** Linux errno numbers and strerror texts, as a real device reports them. */
const errnoTable: Record<string, { number: number; text: string }> = {
  EPERM: { number: 1, text: 'Operation not permitted' },
  ENOENT: { number: 2, text: 'No such file or directory' },
  EIO: { number: 5, text: 'I/O error' },
  EACCES: { number: 13, text: 'Permission denied' },
  EEXIST: { number: 17, text: 'File exists' },
  ENOTDIR: { number: 20, text: 'Not a directory' },
  EISDIR: { number: 21, text: 'Is a directory' },
  EINVAL: { number: 22, text: 'Invalid argument' },
  ENOSPC: { number: 28, text: 'No space left on device' },
  EROFS: { number: 30, text: 'Read-only file system' },
};

interface Errno {
  code: string;
  number: number;
  text: string;
}

function errnoOf(error: unknown): Errno {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const known = typeof code === 'string' ? errnoTable[code] : undefined;
  return known ? { code: code as string, ...known } : { code: 'EIO', ...errnoTable.EIO! };
}

/** Ends the session after a FAIL, as adbd does. */
class SyncSessionEnd extends Error {}

/**
 * The `sync:` service: a loop of `[4-byte id][u32 length][path]` requests until QUIT, end of stream, or a failure
 * (which is reported with FAIL and then ends the session, like adbd).
 */
export async function runSyncService(stream: ServiceStream, fs: PhoneFileSystem): Promise<void> {
  const session = new SyncSession(stream, fs);
  try {
    while (await session.handleNextRequest()) {
      // next request
    }
  } catch (error) {
    if (!(error instanceof SyncSessionEnd)) throw error;
  }
  stream.close();
}

class SyncSession {
  constructor(
    private readonly stream: ServiceStream,
    private readonly fs: PhoneFileSystem,
  ) {}

  /** Handles one request; false when the session is over. */
  async handleNextRequest(): Promise<boolean> {
    const header = await this.stream.readExactly(8);
    if (!header) return false;
    const id = header.toString('latin1', 0, 4);
    const pathLength = header.readUInt32LE(4);
    if (pathLength > MAX_PATH_LENGTH) await this.fail('path too long');
    const pathBytes = pathLength === 0 ? Buffer.alloc(0) : await this.stream.readExactly(pathLength);
    if (!pathBytes) return false;
    const path = pathBytes.toString('utf8');
    switch (id) {
      case 'STAT':
        await this.statV1(path);
        return true;
      case 'STA2':
      case 'LST2':
        await this.statV2(id, path);
        return true;
      case 'LIST':
        await this.list(path);
        return true;
      case 'SEND':
        await this.receiveFile(path);
        return true;
      case 'RECV':
        await this.sendFile(path);
        return true;
      case 'QUIT':
        return false;
      default:
        return this.fail(`unknown command ${header.readUInt32LE(0).toString(16).padStart(8, '0')}`);
    }
  }

  /** The entry, or the errno a real stat(2) would set. */
  private statPath(path: string): { entry: PhoneFileEntry } | { errno: Errno } {
    try {
      const entry = this.fs.stat(path);
      return entry ? { entry } : { errno: errnoOf({ code: 'ENOENT' }) };
    } catch (error) {
      return { errno: errnoOf(error) };
    }
  }

  private async statV1(path: string): Promise<void> {
    const found = this.statPath(path);
    const entry = 'entry' in found ? found.entry : undefined;
    const reply = Buffer.alloc(16);
    reply.write('STAT', 0, 'latin1');
    if (entry) {
      reply.writeUInt32LE(fullMode(entry), 4);
      reply.writeUInt32LE(entry.size >>> 0, 8);
      reply.writeUInt32LE(entry.mtimeSeconds >>> 0, 12);
    }
    await this.stream.write(reply);
  }

  private async statV2(id: 'STA2' | 'LST2', path: string): Promise<void> {
    const reply = Buffer.alloc(72);
    reply.write(id, 0, 'latin1');
    const found = this.statPath(path);
    if ('errno' in found) {
      reply.writeUInt32LE(found.errno.number, 4);
    } else {
      const { entry } = found;
      reply.writeBigUInt64LE(0xfd00n, 8); // dev
      reply.writeBigUInt64LE(BigInt(inodeOf(path)), 16);
      reply.writeUInt32LE(fullMode(entry), 24);
      reply.writeUInt32LE(entry.isDirectory ? 2 : 1, 28); // nlink
      reply.writeUInt32LE(SHELL_UID, 32);
      reply.writeUInt32LE(SHELL_UID, 36);
      reply.writeBigUInt64LE(BigInt(entry.size), 40);
      reply.writeBigInt64LE(BigInt(entry.mtimeSeconds), 48); // atime
      reply.writeBigInt64LE(BigInt(entry.mtimeSeconds), 56);
      reply.writeBigInt64LE(BigInt(entry.mtimeSeconds), 64); // ctime
    }
    await this.stream.write(reply);
  }

  private async list(path: string): Promise<void> {
    const entries = this.listOrUndefined(path) ?? [];
    const self = this.statPath(path);
    const records: Buffer[] = [];
    // Like readdir(3), a real listing starts with the directory itself and its parent.
    if ('entry' in self && self.entry.isDirectory) {
      records.push(dent({ ...self.entry, name: '.' }), dent({ ...self.entry, name: '..' }));
    }
    for (const entry of entries) records.push(dent(entry));
    const done = Buffer.alloc(20);
    done.write('DONE', 0, 'latin1');
    records.push(done);
    await this.stream.write(Buffer.concat(records));
  }

  private listOrUndefined(path: string): PhoneFileEntry[] | undefined {
    try {
      return this.fs.list(path);
    } catch {
      return undefined; // adbd answers an unreadable directory with an empty listing
    }
  }

  /** SEND: the host pushes a file as DATA chunks followed by DONE carrying the mtime. */
  private async receiveFile(spec: string): Promise<void> {
    const comma = spec.lastIndexOf(',');
    if (comma < 0) await this.fail('missing , in ID_SEND');
    const path = spec.slice(0, comma);
    const mode = parseMode(spec.slice(comma + 1));
    if (mode === undefined) await this.fail('bad mode');
    const chunks: Buffer[] = [];
    let mtimeSeconds = 0;
    for (;;) {
      const header = await this.stream.readExactly(8);
      if (!header) throw new SyncSessionEnd();
      const id = header.toString('latin1', 0, 4);
      const size = header.readUInt32LE(4);
      if (id === 'DONE') {
        mtimeSeconds = size;
        break;
      }
      if (id !== 'DATA') await this.fail('invalid data message');
      if (size > SYNC_DATA_MAX) await this.fail('oversize data message');
      const data = await this.stream.readExactly(size);
      if (!data) throw new SyncSessionEnd();
      chunks.push(data);
    }
    try {
      // Copy the user permission bits to group and other, as adbd does.
      let permissions = mode! & 0o777;
      permissions |= (permissions >> 3) & 0o070;
      permissions |= (permissions >> 3) & 0o007;
      this.fs.write(path, Buffer.concat(chunks), permissions, mtimeSeconds);
    } catch (error) {
      await this.fail(`couldn't create file: ${errnoOf(error).text}`);
    }
    const okay = Buffer.alloc(8);
    okay.write('OKAY', 0, 'latin1');
    await this.stream.write(okay);
  }

  /** RECV: the host pulls a file; DATA chunks then DONE, or FAIL. */
  private async sendFile(path: string): Promise<void> {
    let content: Buffer;
    try {
      content = this.fs.read(path);
    } catch (error) {
      const errno = errnoOf(error);
      // Opening a directory succeeds on Linux; reading it is what fails.
      return this.fail(`${errno.code === 'EISDIR' ? 'read failed' : 'open failed'}: ${errno.text}`);
    }
    for (let offset = 0; offset < content.length; offset += SYNC_DATA_MAX) {
      const chunk = content.subarray(offset, offset + SYNC_DATA_MAX);
      const header = Buffer.alloc(8);
      header.write('DATA', 0, 'latin1');
      header.writeUInt32LE(chunk.length, 4);
      await this.stream.write(Buffer.concat([header, chunk]));
      if (this.stream.signal.aborted) throw new SyncSessionEnd();
    }
    const done = Buffer.alloc(8);
    done.write('DONE', 0, 'latin1');
    await this.stream.write(done);
  }

  private async fail(message: string): Promise<never> {
    const text = Buffer.from(message);
    const header = Buffer.alloc(8);
    header.write('FAIL', 0, 'latin1');
    header.writeUInt32LE(text.length, 4);
    await this.stream.write(Buffer.concat([header, text]));
    throw new SyncSessionEnd();
  }
}

/** The shell user (uid/gid 2000) owns what adb pushes. */
const SHELL_UID = 2000;

function fullMode(entry: PhoneFileEntry): number {
  if ((entry.mode & S_IFMT) !== 0) return entry.mode >>> 0;
  return ((entry.isDirectory ? S_IFDIR : S_IFREG) | (entry.mode & 0o7777)) >>> 0;
}

function dent(entry: PhoneFileEntry): Buffer {
  const name = Buffer.from(entry.name);
  const record = Buffer.alloc(20);
  record.write('DENT', 0, 'latin1');
  record.writeUInt32LE(fullMode(entry), 4);
  record.writeUInt32LE(entry.size >>> 0, 8);
  record.writeUInt32LE(entry.mtimeSeconds >>> 0, 12);
  record.writeUInt32LE(name.length, 16);
  return Buffer.concat([record, name]);
}

/** strtoul(..., 0): decimal, 0-prefixed octal or 0x-prefixed hex. */
function parseMode(text: string): number | undefined {
  const trimmed = text.trim();
  let value: number;
  if (/^0x[0-9a-f]+$/i.test(trimmed)) value = Number.parseInt(trimmed.slice(2), 16);
  else if (/^0[0-7]*$/.test(trimmed)) value = Number.parseInt(trimmed, 8);
  else if (/^[1-9][0-9]*$/.test(trimmed)) value = Number.parseInt(trimmed, 10);
  else return undefined;
  return Number.isSafeInteger(value) ? value : undefined;
}

/** A stable fake inode so tools that compare inodes see one file per path. */
function inodeOf(path: string): number {
  let hash = 2166136261;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 16777619) >>> 0;
  return hash;
}
