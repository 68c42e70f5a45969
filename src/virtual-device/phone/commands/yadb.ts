import { failure, output, type CommandOutput } from '../shell/interpreter';
import type { PhoneServices } from './context';

const USAGE = 'usage: yadb -keyboard TEXT | -keyboardClear\n';

/**
 * yadb 1.1.1's `-keyboard TEXT` types any Unicode into the focused field (no keyboard app involved) and
 * `-keyboardClear` empties it. A phone seeded without yadb support fails the way a ROM that blocks its input
 * injection does.
 */
export async function runYadb(phone: PhoneServices, args: readonly string[], signal: AbortSignal): Promise<CommandOutput> {
  const [verb, text] = args;
  if (!phone.data().yadbSupported) {
    return failure(
      'Exception in thread "main" java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.\n',
      1,
    );
  }
  switch (verb) {
    case '-keyboard':
      if (text === undefined) return failure(USAGE, 1);
      await phone.delay('input', signal);
      phone.ui.typeText(text);
      return output();
    case '-keyboardClear':
      await phone.delay('input', signal);
      phone.ui.clearFocusedField();
      return output();
    default:
      return failure(USAGE, 1);
  }
}
