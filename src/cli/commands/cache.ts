import { ExitCode, UsageError, type CliCommand } from '../command';
import { parseCommandArgs } from '../args';
import { terminalWords } from '../terminal-words';
import { shownText } from '../../shared/shown-text';

const USAGE = ['amc cache [list] [--json]', 'amc cache forget GOAL_OR_TASK_ID'].join('\n       ');

/** The plan cache ("Reuse successful runs", the same file as the app's Settings): read it, or forget a goal or a run. Goals are shown escaped. */
export const cacheCommand: CliCommand = {
  name: 'cache',
  usage: USAGE,
  async run(args, io) {
    const { t } = terminalWords();
    const [first, ...rest] = args;
    const action = first === undefined || first.startsWith('-') ? 'list' : first;
    if (action !== 'list' && action !== 'forget') throw new UsageError(t('cli:cache.whatToDo'));
    const given = action === first ? rest : args;
    const { values, positionals } = parseCommandArgs(given, { json: { type: 'boolean' } }, action === 'forget');
    const { resolveAmcHome } = await import('../../core/storage/settings-store');
    const { createPlanCacheStore } = await import('../../core/storage/plan-cache-store');
    const cache = createPlanCacheStore(resolveAmcHome(process.env));
    if (action === 'forget') {
      const which = positionals.join(' ').trim();
      if (!which) throw new UsageError(t('cli:cache.nameOne'));
      const forgotten = await cache.forget(which);
      if (forgotten.length === 0) {
        io.err(t('cli:cache.nothing', { which: shownText(which) }));
        return ExitCode.failed;
      }
      for (const entry of forgotten) io.out(t('cli:cache.forgotten', { goal: shownText(entry.goal), taskId: entry.taskId }));
      return ExitCode.ok;
    }
    const entries = await cache.list();
    if (values.json) io.out(JSON.stringify(entries));
    else if (entries.length === 0) io.out(t('cli:cache.empty'));
    else for (const entry of entries) io.out(t('cli:cache.entry', { taskId: entry.taskId, app: entry.app ?? t('cli:cache.noApp'), goal: shownText(entry.goal) }));
    return ExitCode.ok;
  },
};
