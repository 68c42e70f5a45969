import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Strict option parsing that turns every parse failure into a UsageError (exit code 2). */
export function parseCommandArgs<O extends Options>(args: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Parses a TCP port option; undefined when absent. */
export function parsePort(value: string | undefined, optionName: string): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`${optionName} must be an integer between 0 and 65535, got "${value}"`);
  }
  return port;
}
