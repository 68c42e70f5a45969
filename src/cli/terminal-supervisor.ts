import type { SupervisorDecision, SupervisorPort, SupervisorRequest } from '../core/runtime/supervisor';
import type { PersonRequest } from '../shared/task';
import { actionWords, confirmationReasons, loopDescription } from '../shared/supervision-words';
import { ENGLISH, type Words } from '../shared/i18n/translate';
import { wordCode } from '../shared/said';

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
  /** The terminal's language for what is printed and asked (English by default). */
  words?: Words;
}

/** Why nobody could answer, and how to answer in advance: the runtime puts it after what was asked in the failed task's reason. */
const NO_TERMINAL = wordCode('refusal.noTerminal');

const unanswered = (reason: string): SupervisorDecision => ({ reply: { kind: 'unanswered', reason }, by: 'no-one-present' });

function withoutTerminal(request: PersonRequest): SupervisorDecision {
  switch (request.kind) {
    case 'question':
      return unanswered(`${NO_TERMINAL}; give answers with --answer "text"`);
    case 'confirmation':
      return unanswered(wordCode('refusal.noTerminalYes'));
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
  const words = options.words ?? ENGLISH;
  const { t } = words;
  /** Asks until the line is one of `choices` (by first letter or whole word); null when input ended. */
  const choose = async <C extends string>(prompt: string, choices: readonly C[], signal: AbortSignal, empty?: C): Promise<C | null> => {
    for (;;) {
      const line = await options.askLine!(prompt, signal);
      if (line === null) return null;
      const typed = line.trim().toLowerCase();
      if (!typed && empty) return empty;
      const match = choices.find((choice) => choice === typed || choice.startsWith(typed[0] ?? '\u0000'));
      if (typed && match) return match;
      options.say(t('cli:ask.typeOneOf', { choices: choices.join(', ') }));
    }
  };

  return {
    async ask({ request }: SupervisorRequest, { signal }): Promise<SupervisorDecision> {
      if (request.kind === 'question' && answers.length > 0) {
        const text = answers.shift()!;
        options.say(`${t('cli:ask.agentAsks', { question: request.question })}\n${t('cli:ask.answeredInAdvance', { text })}`);
        return { reply: { kind: 'answer', text }, by: 'preset' };
      }
      if (request.kind === 'confirmation' && options.yes) return { reply: { kind: 'allow', scope: 'once' }, by: 'preset' };
      if (!options.askLine) return withoutTerminal(request);
      const ended = unanswered('input ended before an answer was given');
      switch (request.kind) {
        case 'question': {
          options.say(t('cli:ask.agentAsks', { question: request.question }));
          for (;;) {
            const line = await options.askLine(t('cli:ask.yourAnswer'), signal);
            if (line === null) return ended;
            if (line.trim()) return { reply: { kind: 'answer', text: line.trim().slice(0, 2000) }, by: 'person' };
          }
        }
        case 'confirmation': {
          options.say(t('cli:ask.wantsTo', { action: actionWords(request.tool, request.args, request.target?.label, words) }));
          options.say(t('cli:ask.heldBecause', { reasons: confirmationReasons(request, words) }));
          if (request.rationale) options.say(t('cli:ask.modelSays', { rationale: request.rationale }));
          const choice = await choose(t('cli:ask.allow'), ['yes', 'no', 'all', 'stop'] as const, signal);
          if (choice === null) return ended;
          if (choice === 'stop') return { reply: { kind: 'stop' }, by: 'person' };
          if (choice === 'no') return { reply: { kind: 'deny' }, by: 'person' };
          return { reply: { kind: 'allow', scope: choice === 'all' ? 'task' : 'once' }, by: 'person' };
        }
        case 'hand-over':
        case 'loop': {
          options.say(request.kind === 'hand-over' ? t('cli:ask.yourTurn', { reason: request.reason }) : t('cli:ask.stuck', { description: loopDescription(request, words) }));
          const line = await options.askLine(t('cli:ask.continue'), signal);
          if (line === null) return ended;
          const note = line.trim();
          if (note.toLowerCase() === 'stop' || note === t('cli:ask.stopWord')) return { reply: { kind: 'stop' }, by: 'person' };
          return { reply: { kind: 'continue', ...(note && { note: note.slice(0, 2000) }) }, by: 'person' };
        }
      }
    },
  };
}
