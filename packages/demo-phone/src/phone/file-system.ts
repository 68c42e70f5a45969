/** The phone's in-memory file system: only `/sdcard` and `/data/local/tmp` are writable, as for the shell user. */

export const S_IFDIR = 0o040000;
export const S_IFREG = 0o100000;

export interface FileEntry {
  name: string;
  /** Full st_mode, file type bits included. */
  mode: number;
  size: number;
  mtimeSeconds: number;
  isDirectory: boolean;
}

export type FsErrorCode = 'ENOENT' | 'EISDIR' | 'EACCES' | 'ENOTDIR' | 'ENOTEMPTY' | 'EEXIST';

const messages: Record<FsErrorCode, string> = {
  ENOENT: 'No such file or directory',
  EISDIR: 'Is a directory',
  EACCES: 'Permission denied',
  ENOTDIR: 'Not a directory',
  ENOTEMPTY: 'Directory not empty',
  EEXIST: 'File exists',
};

export class FsError extends Error {
  override name = 'FsError';
  constructor(
    readonly code: FsErrorCode,
    readonly path: string,
  ) {
    super(`${path}: ${messages[code]}`);
  }
  /** The strerror text (as toybox and adbd print it). */
  get reason(): string {
    return messages[this.code];
  }
}

interface FileNode {
  kind: 'file';
  mode: number;
  mtimeSeconds: number;
  data: Buffer;
}
interface DirNode {
  kind: 'dir';
  mode: number;
  mtimeSeconds: number;
  writable: boolean;
  children: Map<string, FsNode>;
}
type FsNode = FileNode | DirNode;

const WRITABLE_ROOTS = ['/sdcard', '/data/local/tmp'];

/** Splits an absolute path into components; `.` and `..` are resolved, relative paths count from `/`. */
export function pathComponents(path: string): string[] {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts;
}

export function normalizePath(path: string): string {
  return '/' + pathComponents(path).join('/');
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export class VirtualFileSystem {
  private root: DirNode = this.createTree();

  /** `beforeWrite` may refuse a write by throwing an FsError (fault injection). */
  constructor(private readonly beforeWrite?: (path: string) => void) {}

  /** Empties the writable areas (used by a phone reset). */
  clear(): void {
    this.root = this.createTree();
  }

  /** The entry, undefined when missing; a trailing `/` on a file is ENOTDIR, as stat(2) says. */
  stat(path: string): FileEntry | undefined {
    const node = this.lookup(path);
    if (!node) return undefined;
    if (node.kind !== 'dir' && path.endsWith('/')) throw new FsError('ENOTDIR', path);
    const parts = pathComponents(path);
    return this.entry(parts[parts.length - 1] ?? '/', node);
  }

  list(path: string): FileEntry[] | undefined {
    const node = this.lookup(path);
    if (!node || node.kind !== 'dir') return undefined;
    return [...node.children.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, child]) => this.entry(name, child));
  }

  read(path: string): Buffer {
    const node = this.resolve(path);
    if (node.kind === 'dir') throw new FsError('EISDIR', path);
    return node.data;
  }

  /** Creates or replaces a file; missing parent directories inside a writable area are created. */
  write(path: string, data: Buffer, mode = 0o644, mtimeSeconds = nowSeconds()): void {
    this.beforeWrite?.(path);
    const parts = pathComponents(path);
    const name = parts.pop();
    if (name === undefined) throw new FsError('EISDIR', path);
    const parent = this.ensureDirectory(parts, path);
    const existing = parent.children.get(name);
    if (existing?.kind === 'dir') throw new FsError('EISDIR', path);
    parent.children.set(name, { kind: 'file', mode: S_IFREG | (mode & 0o7777), mtimeSeconds, data: Buffer.from(data) });
    parent.mtimeSeconds = mtimeSeconds;
  }

  mkdir(path: string, options: { parents?: boolean } = {}): void {
    const parts = pathComponents(path);
    if (!options.parents) {
      const name = parts[parts.length - 1];
      const parent = this.resolve('/' + parts.slice(0, -1).join('/'));
      if (parent.kind !== 'dir') throw new FsError('ENOTDIR', path);
      if (name === undefined || parent.children.has(name)) throw new FsError('EEXIST', path);
    }
    this.ensureDirectory(parts, path);
  }

  remove(path: string, options: { recursive?: boolean } = {}): void {
    const parts = pathComponents(path);
    const name = parts.pop();
    if (name === undefined) throw new FsError('EACCES', path);
    const parent = this.resolve('/' + parts.join('/'));
    if (parent.kind !== 'dir') throw new FsError('ENOTDIR', path);
    const node = parent.children.get(name);
    if (!node) throw new FsError('ENOENT', path);
    if (!this.isWritable(normalizePath(path))) throw new FsError('EACCES', path);
    if (node.kind === 'dir' && !options.recursive) throw new FsError(node.children.size ? 'ENOTEMPTY' : 'EISDIR', path);
    parent.children.delete(name);
  }

  private entry(name: string, node: FsNode): FileEntry {
    return {
      name,
      mode: node.mode,
      size: node.kind === 'file' ? node.data.length : 4096,
      mtimeSeconds: node.mtimeSeconds,
      isDirectory: node.kind === 'dir',
    };
  }

  private lookup(path: string): FsNode | undefined {
    try {
      return this.resolve(path);
    } catch {
      return undefined;
    }
  }

  private resolve(path: string): FsNode {
    let node: FsNode = this.root;
    for (const part of pathComponents(path)) {
      if (node.kind !== 'dir') throw new FsError('ENOTDIR', path);
      const child: FsNode | undefined = node.children.get(part);
      if (!child) throw new FsError('ENOENT', path);
      node = child;
    }
    return node;
  }

  private ensureDirectory(parts: string[], path: string): DirNode {
    let node: DirNode = this.root;
    let current = '';
    for (const part of parts) {
      current += '/' + part;
      let child = node.children.get(part);
      if (!child) {
        if (!this.isWritable(current)) throw new FsError('EACCES', path);
        child = { kind: 'dir', mode: S_IFDIR | 0o771, mtimeSeconds: nowSeconds(), writable: true, children: new Map() };
        node.children.set(part, child);
      }
      if (child.kind !== 'dir') throw new FsError('ENOTDIR', path);
      node = child;
    }
    if (!node.writable) throw new FsError('EACCES', path);
    return node;
  }

  private isWritable(normalized: string): boolean {
    return WRITABLE_ROOTS.some((root) => normalized === root || normalized.startsWith(root + '/'));
  }

  private createTree(): DirNode {
    const dir = (writable: boolean, mode = 0o755): DirNode => ({
      kind: 'dir',
      mode: S_IFDIR | mode,
      mtimeSeconds: nowSeconds(),
      writable,
      children: new Map(),
    });
    const root = dir(false);
    const data = dir(false, 0o771);
    const local = dir(false, 0o751);
    local.children.set('tmp', dir(true, 0o771));
    data.children.set('local', local);
    root.children.set('data', data);
    root.children.set('sdcard', dir(true, 0o770));
    const system = dir(false);
    system.children.set('bin', dir(false));
    root.children.set('system', system);
    return root;
  }
}
