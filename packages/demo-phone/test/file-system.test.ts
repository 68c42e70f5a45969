// The phone's file system on its own: modes, sizes, times and the errno codes the shell turns into error texts.
import { describe, expect, it } from 'vitest';
import { VirtualFileSystem } from '../src/phone/file-system';

describe('VirtualFileSystem', () => {
  it('keeps files with mode, size and mtime and reports errno codes', () => {
    const fs = new VirtualFileSystem();
    fs.write('/sdcard/Download/x.bin', Buffer.from([1, 2, 3]), 0o100644, 1_700_000_000);
    expect(fs.stat('/sdcard/Download/x.bin')).toEqual({ name: 'x.bin', mode: 0o100644, size: 3, mtimeSeconds: 1_700_000_000, isDirectory: false });
    expect(fs.stat('/sdcard/Download')?.isDirectory).toBe(true);
    expect(fs.list('/sdcard')?.map((entry) => entry.name)).toEqual(['Download']);
    expect([...fs.read('/sdcard/Download/x.bin')]).toEqual([1, 2, 3]);
    expect(fs.stat('/data/local/tmp')?.mode).toBe(0o040771);
    expect(() => fs.read('/sdcard/none')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => fs.read('/sdcard')).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(() => fs.write('/system/x', Buffer.alloc(1))).toThrow(expect.objectContaining({ code: 'EACCES' }));
    expect(() => fs.write('/sdcard/Download/x.bin/y', Buffer.alloc(1))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(fs.list('/sdcard/Download/x.bin')).toBeUndefined();
    fs.remove('/sdcard/Download/x.bin');
    expect(fs.stat('/sdcard/Download/x.bin')).toBeUndefined();
    expect(() => fs.remove('/system')).toThrow(expect.objectContaining({ code: 'EACCES' }));
  });
});
