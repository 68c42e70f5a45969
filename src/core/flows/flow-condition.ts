import type { FlowCondition } from '../../shared/flow';
import { problemSaid, sayProblem, type ProblemSaying } from './flow-problem-said';

/**
 * Maestro's `assertTrue: ${A == "x"}`, read without running any script: comparisons of variables, texts, numbers and
 * true/false, joined by `&&`, `||`, `!` and parentheses. Read into an expression of operators and `$N` slots, and the
 * slots' values: a variable becomes `${NAME}`, filled in by the runner like any other, so a value's own quotes or
 * signs stay data and can never change the expression.
 */

type Token = { kind: 'value'; value: string | number | boolean } | { kind: 'sign'; sign: string };

const SIGNS = ['===', '!==', '==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')'];
const COMPARISONS = new Set(['===', '!==', '==', '!=', '<=', '>=', '<', '>']);

function tokens(source: string): Token[] | ProblemSaying {
  const found: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const rest = source.slice(at);
    const space = /^\s+/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    const sign = SIGNS.find((candidate) => rest.startsWith(candidate));
    if (sign) {
      found.push({ kind: 'sign', sign });
      at += sign.length;
      continue;
    }
    const quoted = /^(["'])((?:\\.|(?!\1)[^\\])*)\1/.exec(rest);
    if (quoted) {
      found.push({ kind: 'value', value: quoted[2]!.replace(/\\(.)/g, '$1') });
      at += quoted[0].length;
      continue;
    }
    const number = /^-?\d+(?:\.\d+)?/.exec(rest);
    if (number) {
      found.push({ kind: 'value', value: Number(number[0]) });
      at += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (name && !rest.startsWith(`${name[0]}.`) && !rest.startsWith(`${name[0]}(`)) {
      const word = name[0];
      found.push({ kind: 'value', value: word === 'true' ? true : word === 'false' ? false : `\${${word}}` });
      at += word.length;
      continue;
    }
    return sayProblem('flowFile.condition.notRead', { rest: rest.slice(0, 20) });
  }
  return found;
}

/** The condition Maestro writes (`${…}`, or a bare value), read into a FlowCondition; or why it cannot be. */
export function readCondition(written: string): FlowCondition | { problem: ProblemSaying } {
  const inner = /^\s*\$\{([\s\S]*)\}\s*$/.exec(written)?.[1] ?? written;
  const read = tokens(inner);
  if (!Array.isArray(read)) return { problem: read };
  const values: FlowCondition['values'] = [];
  const parts = read.map((token) => {
    if (token.kind === 'sign') return token.sign;
    values.push(token.value);
    return `$${values.length - 1}`;
  });
  const condition = { written: written.trim(), expression: parts.join(' '), values };
  const judged = evaluate(condition);
  return typeof judged === 'boolean' ? condition : { problem: judged };
}

/** Whether a value counts as true, as JavaScript's `if` would take it. */
const truthy = (value: string | number | boolean) => (typeof value === 'string' ? value !== '' : typeof value === 'number' ? value !== 0 && !Number.isNaN(value) : value);

function compare(sign: string, a: string | number | boolean, b: string | number | boolean): boolean {
  const strict = typeof a === typeof b;
  if (sign === '===') return strict && a === b;
  if (sign === '!==') return !strict || a !== b;
  const [x, y] = typeof a === 'string' && typeof b === 'string' ? [a, b] : [Number(a), Number(b)];
  switch (sign) {
    case '==':
      return x === y;
    case '!=':
      return x !== y;
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    default:
      return x >= y;
  }
}

/**
 * The condition's value with its slots' values (variables filled in), or why the expression is not one: precedence as
 * JavaScript's (`!`, then comparisons, `&&`, `||`).
 */
export function evaluate(condition: FlowCondition): boolean | ProblemSaying {
  const parts = condition.expression.split(' ').filter(Boolean);
  let at = 0;
  const fail = (why: ProblemSaying): never => {
    throw new UnreadCondition(why);
  };
  const operand = (): string | number | boolean => {
    const part = parts[at++];
    if (part === undefined) return fail(sayProblem('flowFile.condition.endsEarly'));
    if (part === '!') return !truthy(operand());
    if (part === '(') {
      const inner = either();
      if (parts[at++] !== ')') fail(sayProblem('flowFile.condition.notClosed'));
      return inner;
    }
    const slot = /^\$(\d+)$/.exec(part);
    if (!slot || condition.values[Number(slot[1])] === undefined) return fail(sayProblem('flowFile.condition.notAValue', { part }));
    return condition.values[Number(slot[1])]!;
  };
  const comparison = (): string | number | boolean => {
    const left = operand();
    if (!COMPARISONS.has(parts[at] ?? '')) return left;
    const sign = parts[at++]!;
    return compare(sign, left, operand());
  };
  const both = (): string | number | boolean => {
    let value = comparison();
    while (parts[at] === '&&') {
      at += 1;
      const right = comparison();
      value = truthy(value) && truthy(right);
    }
    return value;
  };
  const either = (): string | number | boolean => {
    let value = both();
    while (parts[at] === '||') {
      at += 1;
      const right = both();
      value = truthy(value) || truthy(right);
    }
    return value;
  };
  try {
    const value = either();
    if (at !== parts.length) fail(sayProblem('flowFile.condition.endsLate', { part: parts[at]! }));
    return truthy(value);
  } catch (error) {
    if (!(error instanceof UnreadCondition)) throw error;
    return sayProblem('flowFile.condition.cannotRead', { written: condition.written, whySaid: problemSaid(error.why) });
  }
}

/** Why the expression stops being one, carried out of the reader's recursion. */
class UnreadCondition extends Error {
  constructor(readonly why: ProblemSaying) {
    super(why.message);
  }
}
