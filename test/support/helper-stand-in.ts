// Stand-ins for the phone helpers with the real files' size and first bytes. The demo phone runs whatever is pushed,
// so the content is free, but the size is not: a stand-in of a few bytes hid a push that every real phone refused
// (the real scrcpy-server does not fit one 64 KB sync DATA message).
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { HelperName } from '../../src/core/device/helpers/catalog';

/** The pinned release files' sizes and magic bytes (scrcpy-server 3.3.3 is a jar, yadb 1.1.1 a dex file). */
const REAL_FILES: Record<HelperName, { bytes: number; magic: string }> = {
  'scrcpy-server': { bytes: 90_164, magic: 'PK\u0003\u0004' },
  yadb: { bytes: 14_431, magic: 'dex\n035\u0000' },
};

/** Bytes shaped like `helper`'s release file: its magic, then incompressible filler up to its real size. */
export function helperStandIn(helper: HelperName): Buffer {
  const { bytes, magic } = REAL_FILES[helper];
  const out = Buffer.alloc(bytes);
  let offset = out.write(magic, 'latin1');
  for (let block = 0; offset < bytes; block++) {
    offset += createHash('sha256').update(`${helper} stand-in ${block}`).digest().copy(out, offset);
  }
  return out;
}

/** Writes `helper`'s stand-in to `file` and returns the path. */
export async function writeHelperStandIn(helper: HelperName, file: string): Promise<string> {
  await writeFile(file, helperStandIn(helper));
  return file;
}
