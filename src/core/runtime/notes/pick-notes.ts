import type { AppNote } from '../../../shared/app-notes';
import { estimateTokens } from '../../perception/scene-budget';
import { noteLineForPrompt } from '../prompt';

/**
 * The most prompt tokens the notes of one app may take in a turn (their lines, not the block's fixed header): about
 * a dozen typical notes, a tenth of an ordinary Scene, however many notes the app has.
 */
export const APP_NOTES_TOKEN_BUDGET = 300;

/** The notes a turn's prompt carries, most relevant first, and how many of the app's notes did not fit. */
export interface PickedNotes {
  notes: AppNote[];
  leftOut: number;
}

/** Words too common to tell one goal from another. */
const STOP_WORDS = new Set(['a', 'an', 'the', 'to', 'of', 'in', 'and', 'my', 'me', 'for', 'with', 'please', 'i', 'it', 'is', 'be', 'at']);

/** A text's distinct words, lower-cased, any script (plain lexical matching: no stemming, no synonyms). */
export function wordsOf(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word && !STOP_WORDS.has(word)),
  );
}

/** How many of the goal's words a note mentions, in its goal or along its route. */
const relevance = (goalWords: ReadonlySet<string>, note: AppNote): number => {
  const noteWords = wordsOf(`${note.goal} ${note.route}`);
  let shared = 0;
  for (const word of goalWords) if (noteWords.has(word)) shared++;
  return shared;
};

/**
 * The notes to show for `goal`: the most relevant first (ties: the newest first), as many as fit in `budgetTokens`
 * measured on the lines the prompt writes. A note too long to fit is passed over for a shorter one after it.
 */
export function pickNotes(notes: readonly AppNote[], goal: string, budgetTokens = APP_NOTES_TOKEN_BUDGET): PickedNotes {
  const goalWords = wordsOf(goal);
  const ranked = notes
    .map((note) => ({ note, score: relevance(goalWords, note) }))
    .sort((a, b) => b.score - a.score || b.note.createdAt - a.note.createdAt);
  const picked: AppNote[] = [];
  let used = 0;
  for (const { note } of ranked) {
    const cost = estimateTokens(`${noteLineForPrompt(note)}\n`);
    if (used + cost > budgetTokens) continue;
    picked.push(note);
    used += cost;
  }
  return { notes: picked, leftOut: notes.length - picked.length };
}
