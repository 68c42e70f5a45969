import type { TaskVerdict } from '../shared/verdict';

/** One `amc` subcommand. Commands parse their own arguments and return the process exit code. */
export interface CliCommand {
  readonly name: string;
  readonly usage: string;
  /** More for `amc <command> --help` than the usage line, e.g. the tools `act` can run. */
  moreHelp?(): Promise<string>;
  run(args: string[], io: CliIo): Promise<number>;
}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** A live status line on a terminal (rewritten in place; null clears it); absent when stderr is not a terminal. */
  status?(line: string | null): void;
  /**
   * A line whose secret is what the person asked for (a new host token, shown only this once): it is printed as
   * it is, where every other line passes the redaction step. Absent: `out`.
   */
  secret?(line: string): void;
}

/** Exit codes shared by every command (the README's CLI section lists them). */
export const ExitCode = { ok: 0, failed: 1, usage: 2, lookedOnly: 3, notVerified: 4, cancelled: 130 } as const;

/** A finished task's exit code: only a goal carried out and not contradicted is 0, so a script never takes "looked only" for a pass. */
export const TASK_EXIT_CODES: Record<TaskVerdict, number> = {
  done: ExitCode.ok,
  failed: ExitCode.failed,
  // Nobody chose to stop it: it did not get there, as a failure did not.
  interrupted: ExitCode.failed,
  'looked-only': ExitCode.lookedOnly,
  'done-not-verified': ExitCode.notVerified,
  stopped: ExitCode.cancelled,
};

export class UsageError extends Error {
  override name = 'UsageError';
}

/** The configuration cannot run a task (exit code 2, printed without the usage line). */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}
