import type { CliCommand } from '../command';
import { ExitCode, UsageError } from '../command';
import { parseCommandArgs } from '../args';
import { attemptsLabel, sentToPhone } from '../../shared/action';
import { ADB_OPTIONS_USAGE, adbFromOptions, adbOptions, pickSerial, withInterrupt } from './devices';
import { formatDuration } from '../../shared/task-words';
import { terminalWords } from '../terminal-words';
import type { Words } from '../../shared/i18n/translate';
import { stepErrorFor } from '../../shared/supervision-words';

type PropertySchema = { type?: string; enum?: string[]; description?: string; minimum?: number; maximum?: number };

/** `--x 540` arrives as text: convert it to the type the tool's JSON Schema expects; named choices in any case. */
function coerce(name: string, value: string | boolean, schema: PropertySchema | undefined): unknown {
  if (typeof value === 'string' && schema?.enum) {
    const chosen = schema.enum.find((choice) => choice.toLowerCase() === value.trim().toLowerCase());
    if (chosen === undefined) throw new UsageError(terminalWords().t('cli:usageError.oneOf', { option: `--${name}`, accepted: schema.enum.join(', '), value }));
    return chosen;
  }
  if (typeof value === 'boolean' || schema?.type === 'string' || schema === undefined) return value;
  if (schema.type === 'integer' || schema.type === 'number') {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) throw new UsageError(terminalWords().t('cli:usageError.mustBeNumber', { option: `--${name}`, value }));
    return number;
  }
  if (schema.type === 'boolean') {
    if (value !== 'true' && value !== 'false') throw new UsageError(terminalWords().t('cli:usageError.mustBeTrueOrFalse', { option: `--${name}`, value }));
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

/**
 * One argument's line. The schema's description is the model's English: an English reader gets it as before; any
 * other reader gets the argument's name, value and range, which need no words.
 */
function argumentHelp(name: string, schema: PropertySchema, required: boolean, words: Words): string {
  const value = schema.enum ? schema.enum.join('|') : schema.type === 'boolean' ? '' : schema.type === 'string' ? 'TEXT' : 'N';
  const range = schema.minimum !== undefined && schema.maximum !== undefined && !schema.enum ? ` (${schema.minimum}–${schema.maximum})` : '';
  const description = schema.description && !schema.enum && words.language === 'en' ? `  ${schema.description}` : '';
  return `      --${name}${value ? ` ${value}` : ''}${required ? '' : words.t('cli:act.optional')}${range}${description}`;
}

/** What a tool does, for the help: the first sentence of its description for an English reader, else its verb in the catalog. */
const toolAim = (name: string, description: string, words: Words) =>
  words.language === 'en' ? description.split(/(?<=\.) /)[0]! : words.t(`common:action.verb.${name}.do`);

/** Every tool of the registry with its arguments, as `amc act --help` lists them. */
async function toolsHelp(): Promise<string> {
  const { ACTION_TOOLS } = await import('../../core/tools/registry');
  const words = terminalWords();
  const lines = [words.t('cli:act.tools')];
  for (const tool of ACTION_TOOLS.values()) {
    const { properties = {}, required = [] } = tool.spec.inputSchema as { properties?: Record<string, PropertySchema>; required?: string[] };
    lines.push(`  ${tool.name}  ${toolAim(tool.name, tool.description, words)}`);
    for (const [name, schema] of Object.entries(properties)) lines.push(argumentHelp(name, schema, required.includes(name), words));
  }
  lines.push('', words.t('cli:act.anyCase'));
  return lines.join('\n');
}

export const actCommand: CliCommand = {
  name: 'act',
  usage: `amc act [-s SERIAL] TOOL [--ARG VALUE ...] [--json] ${ADB_OPTIONS_USAGE}   e.g. amc act -s SERIAL tap --element_id e3`,
  moreHelp: toolsHelp,
  async run(args, io) {
    const { ACTION_TOOL_NAMES, ACTION_TOOLS } = await import('../../core/tools/registry');
    const toolName = findToolName(args);
    const spec = toolName === undefined ? undefined : ACTION_TOOLS.get(toolName.toLowerCase())?.spec;
    if (!spec) {
      throw new UsageError(terminalWords().t(toolName ? 'cli:usageError.unknownTool' : 'cli:usageError.noTool', { name: toolName, tools: ACTION_TOOL_NAMES.join(', ') }));
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
    if (positionals.length !== 1 || positionals[0]!.toLowerCase() !== spec.name) throw new UsageError(terminalWords().t('cli:usageError.oneToolName', { given: positionals.join(' ') }));
    const toolArgs: Record<string, unknown> = {};
    for (const name of Object.keys(properties)) {
      const value = (values as Record<string, string | boolean | undefined>)[name];
      if (value !== undefined) toolArgs[name] = coerce(name, value, properties[name]);
    }

    const adb = await adbFromOptions(values);
    const serial = await pickSerial(adb, values.serial);
    const { Observer } = await import('../../core/perception/observer');
    const { Executor } = await import('../../core/tools/executor');
    const { typingOfThisMachine } = await import('../../app/phone-typing');
    const typing = typingOfThisMachine(adb);
    const executor = new Executor(adb, { typing });
    try {
      const outcome = await withInterrupt(async (signal) => {
        const observation = await new Observer(adb, { screenshot: false, helpers: typing.helpers }).observe(serial, { signal });
        if (!observation.scene) io.err(`warning: ${observation.sceneError}`);
        return executor.execute({ name: spec.name, args: toolArgs }, { serial, scene: observation.scene, signal });
      });
      const words = terminalWords();
      if (values.json) io.out(JSON.stringify(outcome));
      else if (outcome.ok) {
        const attempts = attemptsLabel(outcome, words);
        const line = { tool: spec.name, ...outcome.target, duration: formatDuration(outcome.durationMs, undefined, words) };
        const done = words.t(outcome.target ? (outcome.target.label ? 'cli:actDone.on' : 'cli:actDone.at') : 'cli:actDone.done', line);
        io.out(`${done}${attempts ? words.t('cli:actDone.attempts', { attempts }) : ''}`);
      } else io.err(words.t('cli:actOutcome.failed', { reason: stepErrorFor(outcome, words) ?? words.t('cli:run.unknownReason') }));
      if (outcome.ok) return ExitCode.ok;
      // Refused before anything reached the phone (no target, an element not on screen): the call was wrong, not the phone.
      return sentToPhone(outcome) ? ExitCode.failed : ExitCode.usage;
    } catch (error) {
      if ((error as Error).name === 'AbortError') return ExitCode.cancelled;
      throw error;
    }
  },
};
