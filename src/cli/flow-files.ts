import { open } from 'node:fs/promises';
import { UsageError } from './command';
import { FLOW_FILE_MAX_BYTES, objectNameProblem, type Flow } from '../shared/flow';
import { VARIABLE_NAME } from '../main/flows/flow-file-schema';
import { FlowFileError, flowFileTooBig, parseFlowFile } from '../main/flows/flow-file';

/** `--var name=value`, repeatable: the flow's variables given on the command line. */
export const flowVarOption = { var: { type: 'string', multiple: true } } as const;
export const FLOW_VAR_USAGE = '[--var NAME=VALUE]...';

/** The `--var` values by name; a malformed one (no `=`, a name that is not one) is refused. */
export function flowVarsOf(values: { var?: string[] }): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const given of values.var ?? []) {
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
    if (size > FLOW_FILE_MAX_BYTES) throw new FlowFileError([{ message: flowFileTooBig(size) }], file);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** The flow file's path: the one positional argument. */
export function flowFileArgument(positionals: readonly string[], usage: string): string {
  if (positionals.length !== 1) throw new UsageError(positionals.length ? `one flow file at a time, got ${positionals.join(', ')}` : `the flow file is missing: ${usage}`);
  return positionals[0]!;
}

/** A flow file read and checked; a file that cannot be read or has problems throws FlowFileError (exit 2, every problem listed). */
export async function readFlowFile(file: string, vars: Readonly<Record<string, string>>): Promise<Flow> {
  let text: string;
  try {
    text = await readBounded(file);
  } catch (error) {
    if (error instanceof FlowFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'it may not be read' : (error as Error).message;
    throw new FlowFileError([{ message: `it cannot be read: ${why}` }], file);
  }
  const result = parseFlowFile(text, { vars });
  if (!result.ok) throw new FlowFileError(result.problems, file);
  return result.flow;
}
