import type { SupervisorDecision, SupervisorPort, SupervisorRequest } from '../main/runtime/supervisor';
import type { PersonRequest } from '../shared/task';
import { actionWords } from '../shared/supervision-words';

/** Reads one line typed by the person; resolves null when input ended (Ctrl-D) or `signal` aborted. */
export type AskLine = (prompt: string, signal: AbortSignal) => Promise<string | null>;

export interface TerminalSupervisorOptions {
  /** The terminal to ask on; null without one (stdin/stdout not a terminal, or `--json`). */
  askLine: AskLine | null;
  /** `--answer` texts, used for the agent's questions in order before anyone is asked. */
  answers: readonly string[];
  /** `--yes`: every action that needs a yes gets it. */
  yes: boolean;
  /** Where the prompts' context goes (the question, why an action is held). */
  say(line: string): void;
}

/** Why nobody could answer, and how to answer in advance: the runtime puts it after what was asked in the failed task's reason. */
const NO_TERMINAL = 'no one can answer: amc run has no terminal to ask on (or runs with --json)';

const unanswered = (reason: string): SupervisorDecision => ({ reply: { kind: 'unanswered', reason }, by: 'no-one-present' });

function withoutTerminal(request: PersonRequest): SupervisorDecision {
  switch (request.kind) {
    case 'question':
      return unanswered(`${NO_TERMINAL}; give answers with --answer "text"`);
    case 'confirmation':
      return unanswered(`${NO_TERMINAL}; --yes allows every action`);
    case 'hand-over':
    case 'loop':
      return unanswered(NO_TERMINAL);
  }
}

/**
 * `amc run`'s person: answers given in advance first (`--answer`, `--yes`), then whoever sits at the terminal,
 * and without a terminal nobody, which ends the task `failed` with the reason. Waiting for a line costs no tokens.
 */
export function terminalSupervisor(options: TerminalSupervisorOptions): SupervisorPort {
  const answers = [...options.answers];
  /** Asks until the line is one of `choices` (by first letter or whole word); null when input ended. */
  const choose = async <C extends string>(prompt: string, choices: readonly C[], signal: AbortSignal, empty?: C): Promise<C | null> => {
    for (;;) {
      const line = await options.askLine!(prompt, signal);
      if (line === null) return null;
      const typed = line.trim().toLowerCase();
      if (!typed && empty) return empty;
      const match = choices.find((choice) => choice === typed || choice.startsWith(typed[0] ?? '\u0000'));
      if (typed && match) return match;
      options.say(`Please type one of: ${choices.join(', ')}.`);
    }
  };

  return {
    async ask({ request }: SupervisorRequest, { signal }): Promise<SupervisorDecision> {
      if (request.kind === 'question' && answers.length > 0) {
        const text = answers.shift()!;
        options.say(`The agent asks: ${request.question}\n  answered from --answer: ${text}`);
        return { reply: { kind: 'answer', text }, by: 'preset' };
      }
      if (request.kind === 'confirmation' && options.yes) return { reply: { kind: 'allow', scope: 'once' }, by: 'preset' };
      if (!options.askLine) return withoutTerminal(request);
      const ended = unanswered('input ended before an answer was given');
      switch (request.kind) {
        case 'question': {
          options.say(`The agent asks: ${request.question}`);
          for (;;) {
            const line = await options.askLine('Your answer: ', signal);
            if (line === null) return ended;
            if (line.trim()) return { reply: { kind: 'answer', text: line.trim().slice(0, 2000) }, by: 'person' };
          }
        }
        case 'confirmation': {
          options.say(`The agent wants to: ${actionWords(request.tool, request.args, request.target?.label)}`);
          options.say(`  held because: ${request.reasons.join('; ')}`);
          if (request.rationale) options.say(`  the model says: ${request.rationale}`);
          const choice = await choose('Allow? [y]es / [n]o / [a]ll for the rest of this task / [s]top: ', ['yes', 'no', 'all', 'stop'] as const, signal);
          if (choice === null) return ended;
          if (choice === 'stop') return { reply: { kind: 'stop' }, by: 'person' };
          if (choice === 'no') return { reply: { kind: 'deny' }, by: 'person' };
          return { reply: { kind: 'allow', scope: choice === 'all' ? 'task' : 'once' }, by: 'person' };
        }
        case 'hand-over':
        case 'loop': {
          options.say(request.kind === 'hand-over' ? `Your turn on the phone: ${request.reason}` : `The agent seems stuck: ${request.description}`);
          const line = await options.askLine('Press Enter to let the agent continue (type a note for it first if you like), or type "stop": ', signal);
          if (line === null) return ended;
          const note = line.trim();
          if (note.toLowerCase() === 'stop') return { reply: { kind: 'stop' }, by: 'person' };
          return { reply: { kind: 'continue', ...(note && { note: note.slice(0, 2000) }) }, by: 'person' };
        }
      }
    },
  };
}
