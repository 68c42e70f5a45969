import { formatUsd } from '../shared/prices';
import { deciderWords, replyWords } from '../shared/supervision-words';
import type { TaskEvent } from '../shared/task';
import { formatCount } from '../shared/task-words';
import type { CliIo } from './command';

/**
 * The supervision side of `amc run`'s turn-by-turn output: tokens and cost per turn and so far, what the runtime
 * verified, guard decisions, and each reply with who gave it. Keeps the running totals across events.
 */
export function supervisionPrinter(io: Pick<CliIo, 'out'>): (event: TaskEvent) => void {
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
        const cost = event.costUsd != null && costUsd != null ? ` · cost ${formatUsd(event.costUsd)}, ${formatUsd(costUsd)} so far` : '';
        io.out(
          `    tokens: ${formatCount(event.usage.inputTokens)} in / ${formatCount(event.usage.outputTokens)} out, ${formatCount(inputTokens)} / ${formatCount(outputTokens)} so far${cost}`,
        );
        return;
      }
      case 'step.verified': {
        const { status, fact } = event.verification;
        io.out(status === 'verified' ? `    verified: ${fact}` : `    not verified: ${fact}`);
        return;
      }
      case 'guard.decided':
        io.out(`    guard (${event.guard}, ${event.decision}, by ${deciderWords(event.by)}): ${event.message}`);
        return;
      case 'person.answered':
        io.out(`    -> ${replyWords(event.reply)} (by ${deciderWords(event.by)})`);
        return;
      case 'task.resumed':
        if (event.note) io.out(`    note for the agent: ${event.note}`);
        return;
      default:
    }
  };
}
