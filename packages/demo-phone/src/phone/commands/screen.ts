import { FsError } from '../file-system';
import { SCREEN_HEIGHT, SCREEN_WIDTH } from '../properties';
import { failure, output, type CommandHandler } from '../shell/interpreter';
import type { PhoneServices } from './context';

/** `uiautomator dump` and `screencap`, both read from the current view tree. */

const DEFAULT_DUMP_FILE = '/sdcard/window_dump.xml';
const RGBA_8888 = 1;
const COLORSPACE_SRGB = 1;

export function uiautomatorCommand(phone: PhoneServices): CommandHandler {
  return async ({ args, signal }) => {
    const [subcommand, ...rest] = args;
    if (subcommand !== 'dump') {
      return failure('Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\ndump: creates an XML dump of current UI hierarchy\n', 1);
    }
    const file = rest.find((arg) => !arg.startsWith('--')) ?? DEFAULT_DUMP_FILE;
    await phone.delay('dump', signal);
    // uiautomator waits for the screen to go idle; one that redraws every frame never does.
    if (phone.takeFault('idle-state-error') || phone.animating()) return failure('ERROR: could not get idle state.\n', 1);
    const xml = phone.hierarchyXml();
    const done = `UI hierchary dumped to: ${file}\n`;
    if (file === '/dev/tty' || file === '/dev/stdout') return output(xml + done);
    try {
      phone.fs.write(file, Buffer.from(xml, 'utf8'), 0o660);
    } catch (error) {
      if (!(error instanceof FsError)) throw error;
      return failure(`java.io.FileNotFoundException: ${file}: open failed: ${error.code === 'EACCES' ? 'EROFS (Read-only file system)' : `${error.code} (${error.reason})`}\n`, 1);
    }
    return output(done);
  };
}

function rawHeader(): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt32LE(SCREEN_WIDTH, 0);
  header.writeUInt32LE(SCREEN_HEIGHT, 4);
  header.writeUInt32LE(RGBA_8888, 8);
  header.writeUInt32LE(COLORSPACE_SRGB, 12);
  return header;
}

/** A screenshot cut short with a scrambled middle, as a flaky transfer would deliver it. */
function corrupt(image: Buffer): Buffer {
  const cut = Buffer.from(image.subarray(0, Math.max(64, Math.floor(image.length * 0.6))));
  for (let index = 33; index < cut.length; index += 7) cut[index] = (cut[index] ?? 0) ^ 0x5a;
  return cut;
}

export function screencapCommand(phone: PhoneServices): CommandHandler {
  return async ({ args, signal }) => {
    let png = false;
    let file: string | undefined;
    for (let index = 0; index < args.length; index++) {
      const arg = args[index] as string;
      if (arg === '-p') png = true;
      else if (arg === '-d') index++;
      else if (arg === '-h') return output('usage: screencap [-hp] [-d display-id] [FILENAME]\n   -h: this message\n   -p: save the file as a png.\n');
      else if (!arg.startsWith('-')) file = arg;
    }
    if (file?.endsWith('.png')) png = true;
    await phone.delay('screencap', signal);
    let image = png ? await phone.screenshotPng() : Buffer.concat([rawHeader(), await phone.screenshotRgba()]);
    if (phone.takeFault('corrupt-screencap')) image = corrupt(image);
    if (file === undefined) return output(image);
    try {
      phone.fs.write(file, image, 0o660);
    } catch (error) {
      if (!(error instanceof FsError)) throw error;
      return failure(`Error opening file: ${file} (${error.code === 'EACCES' ? 'Read-only file system' : error.reason})\n`, 1);
    }
    return output();
  };
}
