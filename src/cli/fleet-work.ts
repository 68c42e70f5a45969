// What `amc submit` and `amc schedule add` carry out: a goal, or a flow file read and checked at once. The flow's
// content (its variables filled in) travels with the job or stays with the schedule, never its path: a worker never
// reads a file from its own disk, and editing or deleting the file later changes nothing already queued or scheduled.
import path from 'node:path';
import { UsageError } from './command';
import { FLOW_VAR_USAGE, flowVarOption, flowVarsOf, readFlowFile } from './flow-files';
import { terminalWords } from './terminal-words';
import type { NamedFlow } from '../shared/flow';

export const workOptions = { goal: { type: 'string' }, flow: { type: 'string' }, ...flowVarOption } as const;
export const WORK_USAGE = `(--goal TEXT | --flow FILE ${FLOW_VAR_USAGE})`;

export interface Work {
  goal: string;
  flow?: NamedFlow;
}

/** A flow file that has problems: the command prints them (each with its line and column) and exits 2, queuing nothing. */
export class BrokenFlowFile extends Error {
  override name = 'BrokenFlowFile';
}

/** Exactly one of --goal and --flow (with its --var values); a broken flow file throws BrokenFlowFile. */
export async function workOf(values: { goal?: string; flow?: string; var?: string[] }): Promise<Work> {
  if ((values.goal === undefined) === (values.flow === undefined)) throw new UsageError(terminalWords().t('cli:usageError.goalOrFlow'));
  if (values.var?.length && values.flow === undefined) throw new UsageError(terminalWords().t('cli:usageError.varNeedsFlow'));
  if (values.goal !== undefined) {
    if (!values.goal.trim()) throw new UsageError(terminalWords().t('cli:usageError.goalNeedsWords'));
    return { goal: values.goal.trim() };
  }
  const file = values.flow!;
  if (!file.trim()) throw new UsageError(terminalWords().t('cli:usageError.flowNeedsFile'));
  const vars = flowVarsOf(values);
  const { FlowFileError } = await import('../core/flows/flow-file');
  try {
    const content = await readFlowFile(file, vars);
    return { goal: content.goal, flow: { name: path.basename(file).replace(/\.ya?ml$/i, ''), content } };
  } catch (error) {
    if (error instanceof FlowFileError) throw new BrokenFlowFile(error.wordedIn(terminalWords()));
    throw error;
  }
}
