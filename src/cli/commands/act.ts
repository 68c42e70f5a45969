import type { CliCommand } from '../command';
import { ExitCode, UsageError } from '../command';
import { parseCommandArgs } from '../args';
import { ADB_OPTIONS_USAGE, adbFromOptions, adbOptions, pickSerial, withInterrupt } from './devices';

type PropertySchema = { type?: string };

/** `--x 540` arrives as text: convert it to the type the tool's JSON Schema expects. */
function coerce(name: string, value: string | boolean, schema: PropertySchema | undefined): unknown {
  if (typeof value === 'boolean' || schema?.type === 'string' || schema === undefined) return value;
  if (schema.type === 'integer' || schema.type === 'number') {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) throw new UsageError(`--${name} must be a number, got "${value}"`);
    return number;
  }
  if (schema.type === 'boolean') {
    if (value !== 'true' && value !== 'false') throw new UsageError(`--${name} must be true or false, got "${value}"`);
    return value === 'true';
  }
  return value;
}

const VALUE_OPTIONS = new Set(['-s', '--serial', '--adb-host', '--adb-port', '--adb-path']);

/** The tool is the first word that is neither an option nor the value of one of the options before it. */
function findToolName(args: string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (VALUE_OPTIONS.has(arg)) index++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

export const actCommand: CliCommand = {
  name: 'act',
  summary: 'run one action tool on the phone through the Executor (observes first so element ids resolve)',
  usage: `amc act [-s SERIAL] TOOL [--ARG VALUE ...] [--json] ${ADB_OPTIONS_USAGE}   e.g. amc act -s SERIAL tap --element_id e3`,
  async run(args, io) {
    const { ACTION_TOOL_NAMES, ACTION_TOOLS } = await import('../../main/tools/registry');
    const toolName = findToolName(args);
    const spec = toolName === undefined ? undefined : ACTION_TOOLS.get(toolName)?.spec;
    if (!spec) {
      throw new UsageError(`${toolName ? `unknown tool "${toolName}"` : 'no tool given'}; tools: ${ACTION_TOOL_NAMES.join(', ')}`);
    }
    const properties = (spec.inputSchema.properties ?? {}) as Record<string, PropertySchema>;
    const toolOptions = Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [name, { type: schema.type === 'boolean' ? 'boolean' : 'string' }] as const),
    ) as Record<string, { type: 'string' | 'boolean' }>;
    const { values, positionals } = parseCommandArgs(
      args,
      { serial: { type: 'string', short: 's' }, json: { type: 'boolean' }, ...adbOptions, ...toolOptions },
      true,
    );
    if (positionals.length !== 1) throw new UsageError(`give exactly one tool name, got ${positionals.join(' ')}`);
    const toolArgs: Record<string, unknown> = {};
    for (const name of Object.keys(properties)) {
      const value = (values as Record<string, string | boolean | undefined>)[name];
      if (value !== undefined) toolArgs[name] = coerce(name, value, properties[name]);
    }

    const adb = await adbFromOptions(values);
    const serial = await pickSerial(adb, values.serial);
    const { Observer } = await import('../../main/perception/observer');
    const { Executor } = await import('../../main/tools/executor');
    try {
      const outcome = await withInterrupt(async (signal) => {
        const observation = await new Observer(adb, { screenshot: false }).observe(serial, { signal });
        if (!observation.scene) io.err(`warning: ${observation.sceneError}`);
        return new Executor(adb).execute({ name: spec.name, args: toolArgs }, { serial, scene: observation.scene, signal });
      });
      if (values.json) io.out(JSON.stringify(outcome));
      else if (outcome.ok) {
        const where = outcome.target ? ` at (${outcome.target.x}, ${outcome.target.y})${outcome.target.label ? ` on ${outcome.target.label}` : ''}` : '';
        io.out(`ok: ${spec.name}${where} in ${outcome.durationMs} ms (${outcome.attempts} adb attempt${outcome.attempts === 1 ? '' : 's'})`);
      } else io.err(`failed: ${outcome.error}`);
      return outcome.ok ? ExitCode.ok : ExitCode.failed;
    } catch (error) {
      if ((error as Error).name === 'AbortError') return ExitCode.cancelled;
      throw error;
    }
  },
};
