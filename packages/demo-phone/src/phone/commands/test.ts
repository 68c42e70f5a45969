import type { VirtualFileSystem } from '../file-system';
import { failure, output, type CommandHandler } from '../shell/interpreter';

/** `test EXPR` and `[ EXPR ]`: file, string and integer tests with `!`, `-a` and `-o`. Exit 0 true, 1 false, 2 error. */

class TestError extends Error {}

function integer(text: string): number {
  if (!/^\s*-?\d+\s*$/.test(text)) throw new TestError(`bad int '${text}'`);
  return Number(text);
}

function evaluate(args: string[], fs: VirtualFileSystem): boolean {
  const orIndex = args.lastIndexOf('-o');
  if (orIndex > 0 && orIndex < args.length - 1) return evaluate(args.slice(0, orIndex), fs) || evaluate(args.slice(orIndex + 1), fs);
  const andIndex = args.lastIndexOf('-a');
  if (andIndex > 0 && andIndex < args.length - 1) return evaluate(args.slice(0, andIndex), fs) && evaluate(args.slice(andIndex + 1), fs);
  if (args[0] === '!' && args.length > 1) return !evaluate(args.slice(1), fs);
  if (args.length === 0) return false;
  if (args.length === 1) return args[0] !== '';
  if (args.length === 2) return unary(args[0] as string, args[1] as string, fs);
  if (args.length === 3) return binary(args[0] as string, args[1] as string, args[2] as string);
  throw new TestError(`extra operand '${args[3]}'`);
}

function unary(operator: string, operand: string, fs: VirtualFileSystem): boolean {
  const entry = (): ReturnType<VirtualFileSystem['stat']> => {
    try {
      return fs.stat(operand);
    } catch {
      return undefined;
    }
  };
  switch (operator) {
    case '-n': return operand !== '';
    case '-z': return operand === '';
    case '-e': case '-r': return entry() !== undefined;
    case '-f': return entry()?.isDirectory === false;
    case '-d': return entry()?.isDirectory === true;
    case '-s': return (entry()?.size ?? 0) > 0;
    case '-w': return entry() !== undefined && !operand.startsWith('/system');
    case '-x': return entry()?.isDirectory === true || ((entry()?.mode ?? 0) & 0o111) !== 0;
    case '-L': case '-h': case '-p': case '-S': case '-b': case '-c': return false;
    default: throw new TestError(`unknown operator '${operator}'`);
  }
}

function binary(left: string, operator: string, right: string): boolean {
  switch (operator) {
    case '=': case '==': return left === right;
    case '!=': return left !== right;
    case '<': return left < right;
    case '>': return left > right;
    case '-eq': return integer(left) === integer(right);
    case '-ne': return integer(left) !== integer(right);
    case '-lt': return integer(left) < integer(right);
    case '-le': return integer(left) <= integer(right);
    case '-gt': return integer(left) > integer(right);
    case '-ge': return integer(left) >= integer(right);
    default: throw new TestError(`unknown operator '${operator}'`);
  }
}

export function testCommand(fs: VirtualFileSystem, bracket: boolean): CommandHandler {
  const name = bracket ? '[' : 'test';
  return ({ args }) => {
    let expression = args;
    if (bracket) {
      if (args[args.length - 1] !== ']') return failure("[: missing ']'\n", 2);
      expression = args.slice(0, -1);
    }
    try {
      return output('', '', evaluate(expression, fs) ? 0 : 1);
    } catch (error) {
      if (error instanceof TestError) return failure(`${name}: ${error.message}\n`, 2);
      throw error;
    }
  };
}
