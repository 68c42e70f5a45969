import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from './command';
import { terminalWords } from './terminal-words';
import { FLOW_FILE_MAX_BYTES, objectNameProblem, type Flow } from '../shared/flow';
import { VARIABLE_NAME } from '../core/flows/flow-file-schema';
import { FlowFileError, flowFileTooBig, parseFlowFile, type FlowFileOptions } from '../core/flows/flow-file';
import { problemSaid, sayProblem, type ProblemSaying } from '../core/flows/flow-problem-said';

/** `--var name=value`, repeatable: the flow's variables given on the command line. */
export const flowVarOption = { var: { type: 'string', multiple: true }, env: { type: 'string', multiple: true, short: 'e' } } as const;
export const FLOW_VAR_USAGE = '[--var NAME=VALUE]...';

/** The `--var` values by name; a malformed one (no `=`, a name that is not one) is refused. */
export function flowVarsOf(values: { var?: string[]; env?: string[] }): Record<string, string> {
  const vars: Record<string, string> = {};
  // `-e NAME=VALUE` is Maestro's way to give the same.
  for (const given of [...(values.var ?? []), ...(values.env ?? [])]) {
    const split = given.indexOf('=');
    const name = split < 0 ? given : given.slice(0, split);
    if (split < 0 || !VARIABLE_NAME.test(name)) throw new UsageError(`--var takes NAME=VALUE (a name of letters, digits and _), e.g. --var city=Paris; got "${given}"`);
    const reserved = objectNameProblem(name);
    if (reserved) throw new UsageError(`--var ${reserved}`);
    if (Object.hasOwn(vars, name)) throw new UsageError(`--var ${name} is given twice`);
    vars[name] = given.slice(split + 1);
  }
  return vars;
}

/** The file's text, refused before it is read whole when it is larger than a flow file may be. */
async function readBounded(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size > FLOW_FILE_MAX_BYTES) throw new FlowFileError([flowFileTooBig(size)], file);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** The flow file's path: the one positional argument. */
export function flowFileArgument(positionals: readonly string[], usage: string): string {
  if (positionals.length !== 1) throw new UsageError(positionals.length ? terminalWords().t('cli:usageError.oneFlowFile', { files: positionals.join(', ') }) : terminalWords().t('cli:usageError.flowFileMissing', { usage }));
  return positionals[0]!;
}

/** Why a file cannot be read, in plain words (the system's own for a rare error). */
function unreadable(error: unknown): ProblemSaying {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? sayProblem('flowFile.noSuchFile') : code === 'EISDIR' ? sayProblem('flowFile.isFolder') : code === 'EACCES' ? sayProblem('flowFile.mayNotRead') : { message: (error as Error).message };
  return sayProblem('flowFile.cannotRead', { whySaid: problemSaid(why) });
}

/** `run_flow: FILE` reads FILE beside the flow that names it (and what that one names, beside it). */
function includeBeside(flowFile: string): NonNullable<FlowFileOptions['include']> {
  return (name) => {
    const file = path.resolve(path.dirname(flowFile), name);
    try {
      const text = readBoundedSync(file);
      return 'problem' in text ? text : { text: text.text, include: includeBeside(file) };
    } catch (error) {
      return { problem: unreadable(error) };
    }
  };
}

/** At most a flow file's size and one byte more, so a huge file (or /dev/zero) is refused without being read whole. */
function readBoundedSync(file: string): { text: string } | { problem: ProblemSaying } {
  const handle = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(FLOW_FILE_MAX_BYTES + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) read = readSync(handle, buffer, length, buffer.length - length, null);
    if (length > FLOW_FILE_MAX_BYTES) return { problem: flowFileTooBig(length) };
    return { text: buffer.toString('utf8', 0, length) };
  } finally {
    closeSync(handle);
  }
}

/** A flow file read and checked; a file that cannot be read or has problems throws FlowFileError (exit 2, every problem listed). */
export async function readFlowFile(file: string, vars: Readonly<Record<string, string>>): Promise<Flow> {
  let text: string;
  try {
    text = await readBounded(file);
  } catch (error) {
    if (error instanceof FlowFileError) throw error;
    throw new FlowFileError([unreadable(error)], file);
  }
  const result = parseFlowFile(text, { vars, include: includeBeside(file), words: terminalWords() });
  if (!result.ok) throw new FlowFileError(result.problems, file);
  return result.flow;
}
