import { commands, summaryOf } from './commands/index';
import { ConfigurationError, ExitCode, UsageError, type CliIo } from './command';
import { appVersion } from '../shared/app-info';
import { plainReason } from '../shared/plain-words';
import { redactSecrets } from '@amc/provider-clients';
import { closestWord } from './did-you-mean';
import { terminalWords } from './terminal-words';
import { saidOf } from '../shared/said';
import { saidWords } from '../shared/supervision-words';

const consoleIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  secret: (line) => process.stdout.write(`${line}\n`),
  ...(process.stderr.isTTY && { status: (line: string | null) => process.stderr.write(`\r\x1b[2K${line ?? ''}`) }),
};

/** Every line a command prints passes the redaction step (keys, tokens, URL passwords) on its way out. */
function redacting(io: CliIo): CliIo {
  const { status, secret } = io;
  return {
    ...(secret && { secret }),
    out: (line) => io.out(redactSecrets(line)),
    err: (line) => io.err(redactSecrets(line)),
    ...(status && { status: (line: string | null) => status(line === null ? null : redactSecrets(line)) }),
  };
}

/** A reader that went away (`amc observe | head`) ends the command quietly, as SIGPIPE ends other CLIs. */
function endQuietlyWhenThePipeCloses(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(ExitCode.ok);
    throw error;
  });
}

export function helpText(): string {
  const { t } = terminalWords();
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    t('cli:help.title'),
    '',
    t('cli:help.usage'),
    '',
    t('cli:help.commands'),
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${summaryOf(c.name)}`),
    '',
    t('cli:help.options'),
    t('cli:help.helpOption'),
    t('cli:help.versionOption'),
  ].join('\n');
}

export async function main(argv: string[], terminal: CliIo = consoleIo): Promise<number> {
  if (terminal === consoleIo) {
    endQuietlyWhenThePipeCloses(process.stdout);
    endQuietlyWhenThePipeCloses(process.stderr);
  }
  const io = redacting(terminal);
  const { t } = terminalWords();
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.out(helpText());
    return first === undefined ? ExitCode.usage : ExitCode.ok;
  }
  if (first === '-v' || first === '--version') {
    io.out(appVersion);
    return ExitCode.ok;
  }
  const entry = commands.find((c) => c.name === first);
  if (!entry) {
    const meant = closestWord(first, commands.map((c) => c.name));
    io.err(meant ? t('cli:unknownCommandMeant', { name: first, meant }) : t('cli:unknownCommand', { name: first }));
    return ExitCode.usage;
  }
  const command = await entry.load();
  if (rest.includes('-h') || rest.includes('--help')) {
    const more = command.moreHelp ? `\n\n${await command.moreHelp()}` : '';
    io.out(`${t('cli:usage', { usage: command.usage })}\n\n${summaryOf(entry.name)}${more}`);
    return ExitCode.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      io.err(`amc ${command.name}: ${error.message}`);
      return ExitCode.usage;
    }
    if (error instanceof UsageError) {
      io.err(`amc ${command.name}: ${error.message}\n${t('cli:usage', { usage: command.usage })}`);
      return ExitCode.usage;
    }
    // Plain words on the terminal; the error's class and stack trace in the log for a bug report.
    const { resolveAmcHome } = await import('../core/storage/settings-store');
    const { logError } = await import('../core/storage/error-log');
    const logged = await logError(resolveAmcHome(process.env), 'cli', `amc ${command.name}`, error);
    const message = error instanceof Error ? error.message : String(error);
    // An error that carries its code (an unreachable fleet Redis, a damaged file, …) is worded in the terminal's
    // language; an English terminal reads the English it always printed.
    const said = saidOf(error);
    const words = terminalWords();
    const reason = plainReason(said && words.language !== 'en' ? saidWords(message, said, words) : message);
    io.err(`amc ${command.name}: ${logged ? t('cli:details', { reason, file: logged }) : reason}`);
    return ExitCode.failed;
  }
}
