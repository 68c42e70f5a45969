import { crc32 } from 'node:zlib';
import { SYSTEM_PROPERTIES } from '../properties';
import { failure, output, type CommandHandler } from '../shell/interpreter';
import type { PhoneServices } from './context';
import { batteryDump } from './radios';

/**
 * `bugreportz`, what `adb bugreport` runs on Android 7 and later: `-v` tells its version (on stderr, where adb reads
 * it) and `-p` writes a zipped report, printing progress and where the file is for adb to pull. On a real phone
 * dumpstate writes it under /data/user_de; here the only place the shell user may write is /data/local/tmp.
 */
const VERSION = '1.2';
const REPORT_DIR = '/data/local/tmp/bugreports';

export function bugreportzCommand(phone: PhoneServices): CommandHandler {
  return async ({ args, signal }) => {
    if (args[0] === '-v') return output('', `${VERSION}\n`);
    if (args[0] !== '-p' && args.length > 0) return failure(`bugreportz: invalid option -- ${args[0]}\nusage: bugreportz [-hpsv]\n`, 1);
    await phone.delay('screencap', signal);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[T:]/g, '-');
    const name = `bugreport-amc_virtual_phone-${SYSTEM_PROPERTIES['ro.build.id']}-${stamp}`;
    const text = `== dumpstate: ${new Date().toISOString()}\nBuild: ${SYSTEM_PROPERTIES['ro.build.display.id']}\n\n------ DUMPSYS battery ------\n${batteryDump()}`;
    const path = `${REPORT_DIR}/${name}.zip`;
    phone.fs.write(path, zipOf([[`${name}.txt`, Buffer.from(text)], ['main_entry.txt', Buffer.from(`${name}.txt`)]]), 0o644);
    const progress = args[0] === '-p' ? 'PROGRESS:50/100\nPROGRESS:100/100\n' : '';
    return output(`BEGIN:${path}\n${progress}OK:${path}\n`);
  };
}

/** A ZIP archive of stored (uncompressed) files. */
function zipOf(files: ReadonlyArray<[string, Buffer]>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of files) {
    const fileName = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
