/**
 * The names a person gives (schedules, device groups): any letters of any script (早上, morning wifi), digits,
 * spaces, dots, dashes and underscores, starting with a letter or a digit, up to 100 characters. A group's name
 * stops at the ":" that starts its phones, and ";" separates groups, so neither can be part of a name.
 */
const NAME = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} ._-]*$/u;
export const NAME_MAX_LENGTH = 100;

/** What is wrong with a name (after trimming), by the code of its words in the `said` catalog; null when it is fine. */
export const NAME_PROBLEM_CODES = { empty: 'schema.nameEmpty', tooLong: 'schema.nameTooLong', characters: 'schema.nameCharacters' } as const;
export type NameProblem = keyof typeof NAME_PROBLEM_CODES;

export function nameProblem(name: string): NameProblem | null {
  const trimmed = name.trim();
  if (!trimmed) return 'empty';
  if (trimmed.length > NAME_MAX_LENGTH) return 'tooLong';
  return NAME.test(trimmed) ? null : 'characters';
}
