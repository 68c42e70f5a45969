import { ExitCode, UsageError, type CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { terminalWords } from '../terminal-words';

const USAGE = ['amc notes [list] [--app PACKAGE] [--json]', 'amc notes remove ID'].join('\n       ');

/** The notes per app the planner receives (the same file as the app's Settings): read them, or remove a wrong one. */
export const notesCommand: CliCommand = {
  name: 'notes',
  usage: USAGE,
  async run(args, io) {
    const [first, ...rest] = args;
    const action = first === undefined || first.startsWith('-') ? 'list' : first;
    const { t } = terminalWords();
    if (action !== 'list' && action !== 'remove') throw new UsageError(t('cli:notes.whatToDo'));
    const given = action === first ? rest : args;
    const { values, positionals } = parseCommandArgs(given, { app: { type: 'string' }, json: { type: 'boolean' } }, action === 'remove');
    const { resolveAmcHome } = await import('../../core/storage/settings-store');
    const { createNotesStore } = await import('../../core/storage/notes-store');
    const notes = createNotesStore(resolveAmcHome(process.env));
    if (action === 'remove') {
      const id = positionals[0];
      if (!id || positionals.length > 1) throw new UsageError(t('cli:notes.nameOne'));
      if (!(await notes.remove(id))) {
        io.err(t('cli:notes.noSuch', { id }));
        return ExitCode.failed;
      }
      io.out(t('cli:notes.removed', { id }));
      return ExitCode.ok;
    }
    const listed = values.app ? await notes.notesFor(values.app) : await notes.list();
    if (values.json) io.out(JSON.stringify(listed));
    else if (listed.length === 0) io.out(values.app ? t('cli:notes.noneFor', { app: values.app }) : t('cli:notes.none'));
    else for (const note of listed) io.out(t('cli:notes.line', { id: note.id, app: note.app, goal: note.goal, route: note.route, edited: note.editedAt ? t('cli:notes.edited') : '' }));
    return ExitCode.ok;
  },
};
