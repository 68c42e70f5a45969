import { say, saidList, wordCode, wordSaid, type Said, type SaidCode, type SaidValues } from '../../shared/said';
import { ENGLISH, type Words } from '../../shared/i18n/translate';
import type { FlowProblem } from './flow-file-types';

/**
 * A flow file's problems by code (the `flowFile` and `maestro` groups of the `said` catalog): the English text the
 * records and tests read, and the code a terminal words in its own language.
 */

/** A problem's message and its code, to spread into a FlowProblem. */
export interface ProblemSaying {
  message: string;
  said: Said;
}

export function sayProblem(code: SaidCode, values: SaidValues = {}): ProblemSaying {
  const { text, said } = say(code, values);
  return { message: text, said };
}

/** A problem's code; one that came without a code (a library's own words) is quoted as it is. */
export const saidOf = (problem: { message: string; said?: Said | undefined }): Said => problem.said ?? { code: 'flowFile.verbatim', values: { text: problem.message } };

/** Several problems as one `…Said` value (joined by "; "). */
export const problemsSaid = (problems: readonly { message: string; said?: Said | undefined }[]): string => saidList(problems.map(saidOf));

/** A problem as another message quotes it: `problemSaid`. */
export const problemSaid = (problem: { message: string; said?: Said | undefined }): string => problemsSaid([problem]);

/** "line 7, column 5: …" as a code, or the problem alone when it has no place in the file. */
export const locatedSaid = (problem: FlowProblem): Said =>
  problem.line === undefined ? saidOf(problem) : { code: 'flowFile.at', values: { line: problem.line, column: problem.column ?? 1, problemSaid: problemSaid(problem) } };

/** "line 7, column 5: …" in a language. */
export const problemLineWords = (problem: FlowProblem, words: Words = ENGLISH): string => {
  const said = locatedSaid(problem);
  return wordSaid(problem.message, said, words);
};

/** "FILE has 2 problems:" and a line per problem, in a language. */
export function flowProblemsWords(problems: readonly FlowProblem[], source: string | undefined, words: Words = ENGLISH): string {
  const named = source ?? wordCode('flowFile.theFile', {}, words);
  const header = wordCode('flowFile.header', { source: named, count: problems.length }, words);
  return [header, ...problems.map((problem) => `  ${problemLineWords(problem, words)}`)].join('\n');
}
