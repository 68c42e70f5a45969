import type { z } from 'zod';
import { VARIABLE_NAME } from './flow-file-schema';
import { saidList, type Said, type SaidCode } from '../../shared/said';
import { problemsSaid, sayProblem, type ProblemSaying } from './flow-problem-said';
import { schemaSaid } from '../../shared/issue-said';

/** Plain words for zod's issues in a flow file; the caller adds where (line and column). */

type Issue = z.core.$ZodIssue;
type Path = (string | number)[];

/** zod's type names that have words of their own. */
const TYPE_CODES: Record<string, SaidCode> = {
  string: 'flowFile.type.string',
  number: 'flowFile.type.number',
  int: 'flowFile.type.int',
  boolean: 'flowFile.type.boolean',
  object: 'flowFile.type.object',
  array: 'flowFile.type.array',
  null: 'flowFile.type.null',
};

/** A long list of accepted values (26 keys) is cut to its first few in a message. */
const MAX_VALUES_SHOWN = 8;

/** How a path is named in a message (the last field, or the step), as a `…Said` value. */
export function fieldSaid(path: readonly PropertyKey[]): string {
  const last = path.at(-1);
  if (last === undefined) return saidList([{ code: 'flowFile.field.flow', values: {} }]);
  if (typeof last === 'number') return saidList([{ code: path.length === 2 && path[0] === 'steps' ? 'flowFile.field.step' : 'flowFile.field.item', values: { number: last + 1 } }]);
  return saidList([{ code: 'flowFile.field.named', values: { name: String(last) } }]);
}

const expectedSaid = (expected: string): string => saidList([TYPE_CODES[expected] ? { code: TYPE_CODES[expected], values: {} } : { code: 'flowFile.verbatim', values: { text: expected } }]);

const sizeSaid = (issue: Extract<Issue, { code: 'too_small' | 'too_big' }>, fieldSaid: string): ProblemSaying => {
  const least = issue.code === 'too_small';
  const limit = String(least ? issue.minimum : issue.maximum);
  switch (issue.origin) {
    case 'string':
      if (least && limit === '1') return sayProblem('flowFile.mustNotBeEmpty', { fieldSaid });
      return sayProblem(least ? 'flowFile.atLeastCharacters' : 'flowFile.atMostCharacters', { fieldSaid, limit });
    case 'array':
      return sayProblem(least ? 'flowFile.atLeastItems' : 'flowFile.atMostItems', { fieldSaid, count: Number(limit) });
    default:
      return sayProblem(least ? 'flowFile.atLeast' : 'flowFile.atMost', { fieldSaid, limit });
  }
};

/** "`a` or `b` or `c`", each "or" in the reader's words. */
const eitherSaid = (shown: readonly string[]): Said =>
  shown.slice(1).reduce<Said>((first, last) => ({ code: 'flowFile.either', values: { firstSaid: saidList([first]), last } }), { code: 'flowFile.verbatim', values: { text: shown[0] ?? '' } });

/** A schema's own message by its code (so it is worded in the reader's language), else its English words as they are. */
const ownMessage = (issue: Issue): ProblemSaying => {
  const said = schemaSaid(issue);
  return { message: issue.message, said: said ?? { code: 'flowFile.verbatim', values: { text: issue.message } } };
};

/** One issue in words, without its position (the path already names the field). */
export function issueWords(issue: Issue, path: readonly PropertyKey[], valueAt: (path: readonly PropertyKey[]) => unknown): ProblemSaying {
  const field = fieldSaid(path);
  switch (issue.code) {
    case 'invalid_type':
      return sayProblem(valueAt(path) === undefined ? 'flowFile.isMissing' : 'flowFile.shouldBe', { fieldSaid: field, expectedSaid: expectedSaid(issue.expected) });
    case 'unrecognized_keys': {
      const of = path.length === 0 ? saidList([{ code: 'flowFile.field.aFlow', values: {} }]) : field;
      const each = issue.keys.map((key) => (key === 'element_id' ? sayProblem('flowFile.elementId') : sayProblem('flowFile.notAField', { key, fieldSaid: of })));
      return each.length === 1 ? each[0]! : sayProblem('flowFile.several', { problemsSaid: problemsSaid(each) });
    }
    case 'too_small':
    case 'too_big':
      return sizeSaid(issue, field);
    case 'invalid_value': {
      const shown = issue.values.slice(0, MAX_VALUES_SHOWN).map((value) => `\`${String(value)}\``);
      if (issue.values.length > MAX_VALUES_SHOWN) return sayProblem('flowFile.mustBeOneOf', { fieldSaid: field, values: shown.join(', '), all: issue.values.length });
      return sayProblem('flowFile.mustBe', { fieldSaid: field, choicesSaid: saidList([eitherSaid(shown)]) });
    }
    case 'invalid_format':
      if (issue.format === 'regex' && 'pattern' in issue && issue.pattern === VARIABLE_NAME.source) return sayProblem('flowFile.variableName', { fieldSaid: field });
      return issue.message.startsWith('Invalid') ? sayProblem('flowFile.notValidFormat', { fieldSaid: field, format: issue.format }) : ownMessage(issue);
    case 'invalid_key':
      return sayProblem('flowFile.badKey', { fieldSaid: field, problemsSaid: problemsSaid(issue.issues.map((inner) => issueWords(inner, path, valueAt))) });
    case 'custom':
      // A variable named like an object's own property (FlowVarNameSchema says which name).
      if (typeof issue.params?.objectName === 'string') return sayProblem('flowFile.objectName', { name: issue.params.objectName });
      return ownMessage(issue);
    default:
      return issue.message.startsWith('Invalid') ? sayProblem('flowFile.notValid', { fieldSaid: field }) : ownMessage(issue);
  }
}

/**
 * The issues of an invalid union, from the one form the value was meant as: a map is read as the map form, a bare
 * value as the bare form. Paths are made whole (prefixed with the union's own path).
 */
export function unionBranchIssues(issue: Extract<Issue, { code: 'invalid_union' }>, path: Path, value: unknown): { issue: Issue; path: Path }[] {
  const isMap = Boolean(value) && typeof value === 'object' && !Array.isArray(value);
  const meant =
    issue.errors.find((branch) => !branch.some((inner) => inner.path.length === 0 && inner.code === 'invalid_type' && (inner.expected === 'object') !== isMap)) ??
    issue.errors.at(-1) ??
    [];
  return meant.map((inner) => ({ issue: inner, path: [...path, ...(inner.path as Path)] }));
}
