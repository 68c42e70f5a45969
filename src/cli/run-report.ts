import { formatUsd } from '../shared/prices';
import { deciderWords, guardMessage, replyWords } from '../shared/supervision-words';
import type { TaskEvent } from '../shared/task';
import { formatCount } from '../shared/task-words';
import { ENGLISH, type Words } from '../shared/i18n/translate';
import { wordSaid } from '../shared/said';
import type { CliIo } from './command';

/**
 * The supervision side of `amc run`'s turn-by-turn output: tokens and cost per turn and so far, what the runtime
 * verified, guard decisions, and each reply with who gave it. Keeps the running totals across events.
 */
export function supervisionPrinter(io: Pick<CliIo, 'out'>, words: Words = ENGLISH): (event: TaskEvent) => void {
  const { t } = words;
  const count = (value: number) => formatCount(value, words.locale);
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd: number | null = null;
  return (event) => {
    switch (event.type) {
      case 'step.planned': {
        if (!event.usage) return;
        inputTokens += event.usage.inputTokens;
        outputTokens += event.usage.outputTokens;
        if (event.costUsd != null) costUsd = (costUsd ?? 0) + event.costUsd;
        const cost = event.costUsd != null && costUsd != null ? t('cli:run.cost', { cost: formatUsd(event.costUsd), total: formatUsd(costUsd) }) : '';
        io.out(
          `    ${t('cli:run.tokens', { input: count(event.usage.inputTokens), output: count(event.usage.outputTokens), totalInput: count(inputTokens), totalOutput: count(outputTokens) })}${cost}`,
        );
        return;
      }
      case 'step.verified': {
        const { status, fact, said } = event.verification;
        const worded = wordSaid(fact, said, words);
        io.out(`    ${status === 'verified' ? t('cli:run.verified', { fact: worded }) : t('cli:run.unverified', { fact: worded })}`);
        return;
      }
      case 'guard.decided':
        io.out(`    ${t('cli:run.guard', { guard: t(`common:guardName.${event.guard}`), decision: t(`common:guardDecision.${event.decision}`), by: deciderWords(event.by, words), message: guardMessage(event, words) })}`);
        return;
      case 'person.answered':
        io.out(`    ${t('cli:run.reply', { reply: replyWords(event.reply, words), by: deciderWords(event.by, words) })}`);
        return;
      case 'task.resumed':
        if (event.note) io.out(`    ${t('cli:run.note', { note: event.note })}`);
        return;
      default:
    }
  };
}
