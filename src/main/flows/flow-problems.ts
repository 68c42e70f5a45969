import type { z } from 'zod';
import { VARIABLE_NAME } from './flow-file-schema';

/** Plain words for zod's issues in a flow file; the caller adds where (line and column). */

type Issue = z.core.$ZodIssue;
type Path = (string | number)[];

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'a map (key: value)',
  array: 'a list',
  null: 'empty',
};

/** A long list of accepted values (26 keys) is cut to its first few in a message. */
const MAX_VALUES_SHOWN = 8;

/** How a path is named in a message: the last field, or the step. */
export function fieldName(path: readonly PropertyKey[]): string {
  const last = path.at(-1);
  if (last === undefined) return 'the flow';
  if (typeof last === 'number') return path.length === 2 && path[0] === 'steps' ? `step ${last + 1}` : `item ${last + 1}`;
  return `\`${String(last)}\``;
}

const sizeWords = (issue: Extract<Issue, { code: 'too_small' | 'too_big' }>, bound: 'at least' | 'at most') => {
  const limit = String(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  switch (issue.origin) {
    case 'string':
      return issue.code === 'too_small' && limit === '1' ? 'must not be empty' : `must be ${bound} ${limit} characters long`;
    case 'array':
      return `needs ${bound} ${limit} ${limit === '1' ? 'item' : 'items'}`;
    default:
      return `must be ${bound} ${limit}`;
  }
};

/** One issue in words, without its position (the path already names the field). */
export function issueWords(issue: Issue, path: readonly PropertyKey[], valueAt: (path: readonly PropertyKey[]) => unknown): string {
  const field = fieldName(path);
  switch (issue.code) {
    case 'invalid_type': {
      const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
      return valueAt(path) === undefined ? `${field} is missing (${expected})` : `${field} should be ${expected}`;
    }
    case 'unrecognized_keys':
      return issue.keys
        .map((key) =>
          key === 'element_id'
            ? '`element_id` names an element of one turn\'s screen only; give a target instead (text, desc, resourceId, hint or row)'
            : `\`${key}\` is not a field of ${field === 'the flow' ? 'a flow' : field}`,
        )
        .join('; ');
    case 'too_small':
      return `${field} ${sizeWords(issue, 'at least')}`;
    case 'too_big':
      return `${field} ${sizeWords(issue, 'at most')}`;
    case 'invalid_value': {
      const shown = issue.values.slice(0, MAX_VALUES_SHOWN).map((value) => `\`${String(value)}\``);
      const more = issue.values.length > MAX_VALUES_SHOWN ? ` … (${issue.values.length} in all)` : '';
      return `${field} must be ${more ? `one of ${shown.join(', ')}${more}` : shown.join(' or ')}`;
    }
    case 'invalid_format':
      if (issue.format === 'regex' && 'pattern' in issue && issue.pattern === VARIABLE_NAME.source) {
        return `${field} must be a name of letters, digits and _ that does not start with a digit`;
      }
      return issue.message.startsWith('Invalid') ? `${field} is not a valid ${issue.format}` : issue.message;
    case 'invalid_key':
      return `a key of ${field} is not valid: ${issue.issues.map((inner) => issueWords(inner, path, valueAt)).join('; ')}`;
    default:
      return issue.message.startsWith('Invalid') ? `${field} is not valid` : issue.message;
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
