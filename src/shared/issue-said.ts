import type { z } from 'zod';
import { isKnownCode, saidList, SaidSchema, type Said, type SaidCode } from './said';
import { schemaMessageSaid } from './schema-message';
import { formatCount } from './task-words';

/**
 * zod's issues as messages by code, so a person reads why an input is refused in their own language, field path kept.
 * A schema's own message is made with `schemaMessage` (its English text is the message zod carries; its code is
 * found again from that text) or carried in the issue's `params.said`; every other issue is worded by its kind.
 */

type Issue = z.core.$ZodIssue;

/** The code a schema gave its issue (in `params.said`, or by a `schemaMessage` text), if any. */
export function schemaSaid(issue: Pick<Issue, 'message'> & { params?: Record<string, unknown> | undefined }): Said | undefined {
  const carried = SaidSchema.safeParse(issue.params?.said);
  if (carried.success && isKnownCode(carried.data.code)) return carried.data;
  return schemaMessageSaid(issue.message);
}

const TYPE_CODES: Record<string, SaidCode> = {
  string: 'input.type.string',
  number: 'input.type.number',
  int: 'input.type.int',
  boolean: 'input.type.boolean',
  object: 'input.type.object',
  array: 'input.type.array',
};

/** A limit as people write it (1,024). */
const amount = (value: number | bigint) => formatCount(Number(value));
const verbatim = (text: string): Said => ({ code: 'input.verbatim', values: { text } });

function sizeSaid(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>): Said {
  const least = issue.code === 'too_small';
  const limit = Number(least ? issue.minimum : issue.maximum);
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (least && limit <= 1) return { code: 'input.notEmpty', values: {} };
      return { code: least ? 'input.atLeastCharacters' : 'input.atMostCharacters', values: { limit: amount(limit) } };
    case 'array':
    case 'set':
      return { code: least ? 'input.atLeastItems' : 'input.atMostItems', values: { count: limit } };
    default:
      return { code: least ? (inclusive ? 'input.atLeast' : 'input.above') : inclusive ? 'input.atMost' : 'input.below', values: { limit: amount(limit) } };
  }
}

/** Why one issue refuses its value, without where (the path is added by `issueSaidAt`). */
export function issueSaid(issue: Issue): Said {
  const own = schemaSaid(issue);
  if (own) return own;
  switch (issue.code) {
    case 'too_small':
    case 'too_big':
      return sizeSaid(issue);
    case 'invalid_type': {
      const expected = TYPE_CODES[issue.expected];
      return { code: 'input.mustBe', values: { expectedSaid: saidList([expected ? { code: expected, values: {} } : verbatim(issue.expected)]) } };
    }
    case 'invalid_value':
      return { code: 'input.oneOf', values: { values: issue.values.map(String).join(', ') } };
    case 'unrecognized_keys':
      return { code: 'input.unknownFields', values: { keys: issue.keys.join(', '), count: issue.keys.length } };
    case 'invalid_format':
      return issue.format === 'regex' ? { code: 'input.notInForm', values: {} } : { code: 'input.notValidFormat', values: { format: issue.format } };
    case 'not_multiple_of':
      return { code: 'input.multipleOf', values: { divisor: String(issue.divisor) } };
    case 'invalid_key':
      return { code: 'input.badKey', values: {} };
    case 'invalid_union':
    case 'invalid_element':
      return { code: 'input.notValid', values: {} };
    case 'custom':
      // A refinement that gave no code of its own: its English words are all there is.
      return verbatim(issue.message);
  }
}

/** The dotted path of an issue's field (`aiPlanner.maxSteps`), empty for the whole input. */
export const issuePath = (issue: Pick<Issue, 'path'>): string => issue.path.map(String).join('.');

/** "route: must not be empty" as a code: the field's path, then why. */
export function issueSaidAt(issue: Issue): Said {
  const path = issuePath(issue);
  const problemSaid = saidList([issueSaid(issue)]);
  return path ? { code: 'input.at', values: { path, problemSaid } } : { code: 'input.whole', values: { problemSaid } };
}

/** The issues as one `…Said` value, each under the name its reader knows the field by (an option, a variable, a file's field). */
export const issuesSaidNamed = (issues: readonly Issue[], nameOf: (path: string) => string): string =>
  saidList(issues.map((issue) => ({ code: 'input.at', values: { path: nameOf(issuePath(issue)), problemSaid: saidList([issueSaid(issue)]) } })));
