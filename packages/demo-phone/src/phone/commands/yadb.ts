import { FsError } from '../file-system';
import { failure, output, type CommandOutput } from '../shell/interpreter';
import type { PhoneServices } from './context';

const USAGE = 'usage: yadb -keyboard TEXT | -keyboardClear | -layout [PATH] | -screenshot [PATH]\n';
const LAYOUT_DEFAULT_FILE = '/data/local/tmp/yadb_layout_dump.xml';
const SCREENSHOT_DEFAULT_FILE = '/data/local/tmp/yadb_screenshot.png';

/**
 * yadb 1.1.1: `-keyboard TEXT` types any Unicode into the focused field (no keyboard app involved) and
 * `-keyboardClear` empties it; `-layout [PATH]` writes the UI hierarchy without waiting for the screen to go idle
 * (it works where `uiautomator dump` cannot get an idle state) and `-screenshot [PATH]` writes a PNG, each saying
 * where as the real one does. A phone seeded without yadb support refuses the input injection, as ROMs that block
 * it do.
 */
export async function runYadb(phone: PhoneServices, args: readonly string[], signal: AbortSignal): Promise<CommandOutput> {
  const [verb, argument] = args;
  switch (verb) {
    case '-keyboard':
      if (argument === undefined) return failure(USAGE, 1);
      if (!phone.data().yadbSupported) return injectionRefused();
      await phone.delay('input', signal);
      phone.ui.typeText(argument);
      return output();
    case '-keyboardClear':
      if (!phone.data().yadbSupported) return injectionRefused();
      await phone.delay('input', signal);
      phone.ui.clearFocusedField();
      return output();
    case '-layout': {
      await phone.delay('dump', signal);
      const file = argument ?? LAYOUT_DEFAULT_FILE;
      return writeFile(phone, file, Buffer.from(phone.hierarchyXml(), 'utf8'), `layout dumped to:${file}\n`);
    }
    case '-screenshot': {
      await phone.delay('screencap', signal);
      const file = argument ?? SCREENSHOT_DEFAULT_FILE;
      return writeFile(phone, file, await phone.screenshotPng(), `screenshot success:${file}\n`);
    }
    default:
      return failure(USAGE, 1);
  }
}

function injectionRefused(): CommandOutput {
  return failure(
    'Exception in thread "main" java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.\n',
    1,
  );
}

function writeFile(phone: PhoneServices, file: string, content: Buffer, said: string): CommandOutput {
  try {
    phone.fs.write(file, content, 0o660);
  } catch (error) {
    if (!(error instanceof FsError)) throw error;
    return failure(`Exception in thread "main" java.io.FileNotFoundException: ${file}: open failed: ${error.code} (${error.reason})\n`, 1);
  }
  return output(said);
}
