import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command';
import { closestWord } from './did-you-mean';
import { terminalWords } from './terminal-words';

type Options = NonNullable<ParseArgsConfig['options']>;

const optionList = (options: Options) =>
  Object.entries(options)
    .map(([name, option]) => `--${name}${option.type === 'string' ? ' VALUE' : ''}`)
    .join(', ');

/**
 * `--Goal` and `--GOAL` mean `--goal`: a long option given in another case is rewritten to the declared name when
 * exactly one declared name matches (so two options differing only in case would both stay exact).
 */
function withDeclaredCase(args: string[], options: Options): string[] {
  const names = Object.keys(options);
  return args.map((arg, index) => {
    if (!arg.startsWith('--') || arg === '--' || args.slice(0, index).includes('--')) return arg;
    const [given, ...value] = arg.slice(2).split('=');
    if (names.includes(given!)) return arg;
    const matches = names.filter((name) => name.toLowerCase() === given!.toLowerCase());
    return matches.length === 1 ? `--${[matches[0], ...value].join('=')}` : arg;
  });
}

/** Our own words for what node's parser refuses (its messages talk about its API, not about this command). */
function usageProblem(args: string[], options: Options, allowPositionals: boolean): string | undefined {
  const { t } = terminalWords();
  const shortNames = new Map(Object.entries(options).flatMap(([name, option]) => (option.short ? [[option.short, name] as const] : [])));
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') return undefined;
    let name: string | undefined;
    let inlineValue = false;
    if (arg.startsWith('--')) {
      const [given] = arg.slice(2).split('=');
      inlineValue = arg.includes('=');
      name = given!;
      if (!(name in options)) {
        const meant = closestWord(name, Object.keys(options));
        const words = { name, meant, options: optionList(options) };
        return t(meant ? 'cli:args.unknownOptionMeant' : 'cli:args.unknownOption', words);
      }
    } else if (arg.startsWith('-') && arg.length > 1 && !/^-\d/.test(arg)) {
      name = shortNames.get(arg.slice(1, 2));
      if (name === undefined) return t('cli:args.unknownShort', { option: arg.slice(0, 2), options: optionList(options) });
      inlineValue = arg.length > 2;
    } else {
      if (!allowPositionals) return t('cli:args.unexpected', { arg });
      continue;
    }
    const option = options[name]!;
    if (option.type === 'boolean' && inlineValue && arg.startsWith('--')) return t('cli:args.isSwitch', { name });
    if (option.type === 'string' && !inlineValue) {
      const next = args[index + 1];
      if (next === undefined || (next.startsWith('-') && next.length > 1 && !/^-\d/.test(next))) return t('cli:args.needsValue', { name });
      index++;
    }
  }
  return undefined;
}

/**
 * `--repeat -1` as `--repeat=-1`: node's parser takes a value that starts with "-" for a forgotten one, so a negative
 * number would get its words ("argument is ambiguous") instead of the option's own range check.
 */
function withNegativeValuesInline(args: string[], options: Options): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const next = args[index + 1];
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      index++;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

/** Strict option parsing that turns every parse failure into a UsageError (exit code 2), in this command's words. */
export function parseCommandArgs<O extends Options>(args: string[], options: O, allowPositionals = false) {
  const normalized = withDeclaredCase(args, options);
  const problem = usageProblem(normalized, options, allowPositionals);
  if (problem) throw new UsageError(problem);
  try {
    return parseArgs({ args: withNegativeValuesInline(normalized, options), options, allowPositionals, strict: true });
  } catch (error) {
    // Whatever slipped past the check above: node's text, without its error code.
    throw new UsageError(error instanceof Error ? error.message.replace(/^\[ERR_[A-Z_]+\]:?\s*/, '') : String(error));
  }
}

/** Parses a TCP port option; undefined when absent. */
export function parsePort(value: string | undefined, optionName: string): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(terminalWords().t('cli:args.port', { option: optionName, value }));
  }
  return port;
}

/** A whole number option within [min, max]; undefined when absent. */
export function wholeNumber(value: string | undefined, option: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) throw new UsageError(terminalWords().t('cli:args.wholeNumber', { option, min, max, value }));
  return number;
}
