import { abortableDelay } from '../latency';
import { formatAllProperties, SYSTEM_PROPERTIES } from '../properties';
import { failure, output, type CommandHandler } from '../shell/interpreter';

/** `echo [-n] [-e] ARGS...` as toybox does it. */
export const echo: CommandHandler = ({ args }) => {
  let newline = true;
  let escapes = false;
  let index = 0;
  for (; index < args.length; index++) {
    const flag = args[index] as string;
    if (!/^-[neE]+$/.test(flag)) break;
    if (flag.includes('n')) newline = false;
    if (flag.includes('e')) escapes = true;
    if (flag.includes('E')) escapes = false;
  }
  let text = args.slice(index).join(' ');
  if (escapes) text = text.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\\\/g, '\\');
  return output(newline ? text + '\n' : text);
};

export const getprop: CommandHandler = ({ args }) => {
  const [key, fallback] = args;
  if (key === undefined) return output(formatAllProperties());
  return output(`${SYSTEM_PROPERTIES[key] ?? fallback ?? ''}\n`);
};

export const sleep: CommandHandler = async ({ args, signal }) => {
  const seconds = Number(args[0]);
  if (args[0] === undefined || !Number.isFinite(seconds) || seconds < 0) {
    return failure(`sleep: invalid number '${args[0] ?? ''}'\n`);
  }
  await abortableDelay(seconds * 1000, signal);
  return output();
};

export const trueCommand: CommandHandler = () => output();
export const falseCommand: CommandHandler = () => output('', '', 1);
