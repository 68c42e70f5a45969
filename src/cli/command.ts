/** One `amc` subcommand. Commands parse their own arguments and return the process exit code. */
export interface CliCommand {
  readonly name: string;
  readonly summary: string;
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
}

/** Exit codes shared by every command. */
export const ExitCode = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

export class UsageError extends Error {
  override name = 'UsageError';
}
