import type { Flow } from '../../shared/flow';
import type { Said } from '../../shared/said';
import type { Words } from '../../shared/i18n/words';

/** What reading a flow file (ours or Maestro's) takes and gives: shared by both readers. */

/** What a problem says: in English, and by its code (flow-problem-said.ts) for a terminal in another language. */
export interface ProblemMessage {
  message: string;
  said?: Said;
}

export interface FlowProblem extends ProblemMessage {
  /** 1-based; absent for a problem outside the file (a `--var` the flow does not use). */
  line?: number;
  column?: number;
}

export type FlowFileResult = { ok: true; flow: Flow } | { ok: false; problems: FlowProblem[] };

export interface FlowFileOptions {
  /** `--var name=value`: overrides the file's `vars`. */
  vars?: Readonly<Record<string, string>>;
  /**
   * Reads a flow file a `run_flow` names, relative to this one (with its own way to read the files it names); absent
   * (a flow given as text, without its folder): `run_flow: FILE` is refused.
   */
  include?: (file: string) => { text: string; include?: FlowFileOptions['include'] } | { problem: ProblemMessage };
  /** How many run_flow files deep this file is read. */
  depth?: number;
  /** Check that each `${name}` has a value in `vars` but leave it written as it is (a recorded step a person edits keeps its references). */
  keepReferences?: boolean;
  /** The language of the words the app writes into the flow (a Maestro flow's goal when it names none); English by default. */
  words?: Words;
}

/** The variable Maestro's copyTextFrom keeps its words in, and pasteText types (Maestro's `maestro.copiedText`). */
export const COPIED_TEXT = 'maestroCopiedText';
