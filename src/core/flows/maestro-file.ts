import { randomInt } from 'node:crypto';
import { LineCounter, parseAllDocuments, type Document } from 'yaml';
import { FlowSchema, LOCATOR_INDEX_MAX, LOCATOR_SIZE_MAX, screenshotNameProblem, LOCATOR_RELATIONS, type ActionStep, type FlowStep, type Locator, type LocatorRelations, type LocatorSize, type LocatorState, type StepCondition } from '../../shared/flow';
import type { FlowFileOptions, FlowFileResult, FlowProblem, ProblemMessage } from './flow-file-types';
import { locatedSaid, problemSaid, sayProblem, type ProblemSaying } from './flow-problem-said';
import { saidList, wordCode } from '../../shared/said';
import { readCondition } from './flow-condition';
import { COPIED_TEXT } from './flow-file-types';
import { fillVariables, referencedVariables, stringsWithPaths } from './flow-variables';

/**
 * Maestro's flow files, read as they are: a header document (`appId`, `name`, `env`, `onFlowStart`/`onFlowComplete`)
 * and a list of commands, each made into this app's flow steps, so one runner (with its waits, checks and supervision)
 * runs both. Every command or field amc does not run is named with its line and column, and the file is refused
 * before anything runs: a command is never skipped.
 */

/** A Maestro file: a first document with `appId`, then `---` and the commands. */
export function isMaestroFlow(text: string): boolean {
  return /^appId\s*:/m.test(text) && /^---\s*$/m.test(text);
}

type Raw = Record<string, unknown>;
const isRaw = (value: unknown): value is Raw => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** Maestro's keys for `pressKey`, as our press_key names them. */
const KEYS: Record<string, string> = { enter: 'enter', back: 'back', home: 'home', backspace: 'delete', delete: 'delete', tab: 'tab', escape: 'escape', 'volume up': 'volume_up', 'volume down': 'volume_down', power: 'power' };
const SELECTOR_FIELDS = new Set(['text', 'id', 'index', 'optional', 'enabled', 'checked', 'focused', 'selected', 'below', 'above', 'leftOf', 'rightOf', 'childOf', 'containsChild', 'containsDescendants', 'label', 'retryTapIfNoChange', 'waitToSettleTimeoutMs', 'width', 'height', 'tolerance']);
/** Maestro's size selector: the element's width and height in pixels, within `tolerance`. */
const SIZES = ['width', 'height', 'tolerance'] as const;
/** Selector fields amc reads; the others are refused (their meaning would otherwise be lost). */
const SELECTOR_READ = new Set(['text', 'id', 'index', 'optional', 'label', 'enabled', 'checked', 'focused', 'selected', ...SIZES, ...LOCATOR_RELATIONS]);
/** A repeated group with a repetition inside (`(a+)+`, `(x*)*`): the shape that makes matching take exponential time. */
const NESTED_REPETITION = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,)/;
const STATES = ['enabled', 'checked', 'focused', 'selected'] as const;
const REGEX_SIGNS = /[\\^$*+?()[\]{}|.]/;

/**
 * A selector's text or id as Maestro reads it: a regular expression matched against the whole text, unless it is no
 * valid one (then the text as written). `${VAR}` is a variable, filled in before it is matched.
 */
function pattern(written: string): { literal: string } | { pattern: string } | { problem: ProblemSaying } {
  const bare = written.replace(/\$\{\w+\}/g, '');
  if (!REGEX_SIGNS.test(bare)) return { literal: written };
  if (NESTED_REPETITION.test(bare)) return { problem: sayProblem('maestro.nestedRepetition', { written }) };
  try {
    new RegExp(written);
    return { pattern: written };
  } catch {
    return { literal: written };
  }
}

/** How Maestro names the copied words in a command (`${maestro.copiedText}`), read left to right past each literal `$${`. */
const MAESTRO_COPIED_TEXT = /\$\$\{|\$\{maestro\.copiedText\}/g;

/** A document's values, with Maestro's `${maestro.copiedText}` written as our variable's reference. */
function contentOf(doc: Document): unknown {
  const rename = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(MAESTRO_COPIED_TEXT, (found) => (found === '$${' ? found : `\${${COPIED_TEXT}}`));
    if (Array.isArray(value)) return value.map(rename);
    if (isRaw(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rename(item)]));
    return value;
  };
  return rename(doc.toJS());
}

class Reader {
  readonly problems: FlowProblem[] = [];
  private readonly counter = new LineCounter();
  private doc: Document | undefined;

  constructor(
    private readonly text: string,
    private readonly options: FlowFileOptions,
    private readonly appId: () => string,
  ) {}

  parse(): { header: Raw; commands: unknown[]; doc: Document } | null {
    const docs = parseAllDocuments(this.text, { lineCounter: this.counter, uniqueKeys: true, prettyErrors: false });
    if (!Array.isArray(docs)) return this.fail([1, 1], sayProblem('flowFile.notYamlAtAll'));
    for (const doc of docs) for (const error of doc.errors) this.problem(error.pos[0], sayProblem('flowFile.notYaml', { why: error.message.split('\n')[0]! }));
    if (this.problems.length) return null;
    const [first, second] = docs;
    if (!first || !second) return this.fail([1, 1], sayProblem('maestro.notAFlow'));
    const header = contentOf(first);
    const commands = contentOf(second);
    if (!isRaw(header)) return this.fail([1, 1], sayProblem('maestro.headerMap'));
    this.doc = second;
    if (!Array.isArray(commands)) return this.fail([1, 1], sayProblem('maestro.commandsList'));
    return { header, commands, doc: second };
  }

  /** The line and column of a command (by its path in the commands' document). */
  at(path: (string | number)[]): number {
    const node = this.doc?.getIn(path, true) as { range?: [number, number, number] } | undefined;
    return node?.range?.[0] ?? 0;
  }

  problem(offset: number, problem: ProblemMessage): void {
    const { line, col } = this.counter.linePos(offset);
    this.problems.push({ line, column: col, ...problem });
  }

  private fail([line, column]: [number, number], problem: ProblemMessage): null {
    this.problems.push({ line, column, ...problem });
    return null;
  }

  /** The commands of a list as our steps (a command amc does not run is a problem at its line). */
  commands(list: unknown[], path: (string | number)[]): { steps: FlowStep[]; lines: number[] } {
    const steps: FlowStep[] = [];
    const lines: number[] = [];
    list.forEach((command, index) => {
      const at = [...path, index];
      const offset = this.at(at);
      const made = this.command(command, at, offset);
      for (const step of made) {
        steps.push(step);
        lines.push(this.counter.linePos(offset).line);
      }
    });
    return { steps, lines };
  }

  private command(command: unknown, at: (string | number)[], offset: number): FlowStep[] {
    const [name, value] = typeof command === 'string' ? [command, null] : isRaw(command) && Object.keys(command).length === 1 ? Object.entries(command)[0]! : [undefined, undefined];
    if (name === undefined) {
      this.problem(offset, sayProblem('maestro.commandForm'));
      return [];
    }
    const bad = (problem: ProblemMessage): FlowStep[] => {
      this.problem(offset, sayProblem('maestro.command', { command: name, problemSaid: problemSaid(problem) }));
      return [];
    };
    switch (name) {
      case 'launchApp': {
        const options = isRaw(value) ? value : {};
        const app = typeof value === 'string' ? value : typeof options.appId === 'string' ? options.appId : this.appId();
        const unknown = Object.keys(options).filter((key) => !['appId', 'clearState', 'stopApp', 'arguments', 'permissions'].includes(key));
        if (unknown.length) return bad(sayProblem('maestro.doesNotRead', { fields: unknown.map((key) => `\`${key}\``).join(', ') }));
        if (options.arguments !== undefined || options.permissions !== undefined) return bad(sayProblem('maestro.launchArguments'));
        return [
          ...(options.stopApp === false ? [] : [action('stop_app', { app })]),
          ...(options.clearState === true ? [action('clear_app', { app })] : []),
          action('launch_app', { app }),
        ];
      }
      case 'tapOn':
      case 'doubleTapOn':
      case 'longPressOn': {
        const selector = this.selector(value, offset, name);
        if (!selector) return [];
        return [{ ...action(TAPS[name], {}), target: selector.locator, ...(selector.optional && { optional: true }) }];
      }
      case 'inputRandomText':
      case 'inputRandomNumber':
      case 'inputRandomEmail':
      case 'inputRandomPersonName': {
        const length = isRaw(value) && value.length !== undefined ? Number(value.length) : RANDOM_LENGTH;
        if (!Number.isInteger(length) || length < 1 || length > 200) return bad(sayProblem('maestro.randomLength'));
        return [action('type_text', { text: randomInput(name, length) })];
      }
      case 'eraseText': {
        const given = isRaw(value) ? value.charactersToErase : value;
        const count = given === null || given === undefined ? undefined : Number(given);
        if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > 1000)) return bad(sayProblem('maestro.eraseCount'));
        return [action('erase_text', count === undefined ? {} : { count })];
      }
      case 'assertTrue': {
        const written = isRaw(value) ? value.condition : value;
        if (typeof written !== 'string' && typeof written !== 'number' && typeof written !== 'boolean') return bad(sayProblem('maestro.takesCondition'));
        const condition = readCondition(String(written));
        if ('problem' in condition) return bad(condition.problem);
        // Judged once, as Maestro does: a condition on variables does not change while the screen does.
        return [{ assert: { condition }, timeout: 0 }];
      }
      case 'copyTextFrom': {
        const selector = this.selector(value, offset, name);
        if (!selector) return [];
        return [{ copy_text: { from: selector.locator, into: COPIED_TEXT }, ...(selector.optional && { optional: true }) }];
      }
      case 'pasteText':
        return [action('type_text', { text: `\${${COPIED_TEXT}}` })];
      case 'takeScreenshot': {
        const name = typeof value === 'string' ? value : isRaw(value) && typeof value.path === 'string' ? value.path : undefined;
        if (name === undefined) return bad(sayProblem('maestro.takesScreenshotName'));
        const problem = screenshotNameProblem(name);
        return problem ? bad({ message: problem.text, said: problem.said }) : [{ screenshot: name }];
      }
      case 'hideKeyboard':
        return [action('hide_keyboard', {})];
      case 'assertVisible':
      case 'assertNotVisible': {
        const selector = this.selector(value, offset, name);
        if (!selector) return [];
        const words = plainText(selector.locator);
        const locator = selector.locator;
        const assertion = words !== undefined ? (name === 'assertVisible' ? { visible: words } : { absent: words }) : name === 'assertVisible' ? { element: locator } : { no_element: locator };
        return [{ assert: assertion, ...(selector.optional && { optional: true }) }];
      }
      case 'extendedWaitUntil': {
        if (!isRaw(value)) return bad(sayProblem('maestro.takesVisible'));
        const which = value.visible !== undefined ? 'visible' : 'notVisible';
        const selector = this.selector(value[which], offset, name);
        if (!selector) return [];
        const timeout = Number(value.timeout ?? 17_000);
        const optional = value.optional === true ? { optional: true } : {};
        const words = plainText(selector.locator);
        // A plain text is waited for as such; any other selector by an assert, which waits as long.
        if (words === undefined) return [{ assert: which === 'visible' ? { element: selector.locator } : { no_element: selector.locator }, timeout, ...optional }];
        return [{ wait_until: { [which === 'visible' ? 'visible' : 'not_visible']: words, timeout }, ...optional }];
      }
      case 'waitForAnimationToEnd':
        return [{ wait_for_settle: isRaw(value) && value.timeout !== undefined ? { timeout: Number(value.timeout) } : null }];
      case 'inputText':
        return typeof value === 'string' || typeof value === 'number' ? [action('type_text', { text: String(value) })] : bad(sayProblem('maestro.takesText'));
      case 'back':
        return [action('press_key', { key: 'back' })];
      case 'pressKey': {
        const key = typeof value === 'string' ? KEYS[value.toLowerCase()] : undefined;
        return key ? [action('press_key', { key })] : bad(sayProblem('maestro.keys', { keys: Object.keys(KEYS).join(', ') }));
      }
      case 'scroll':
        return [action('swipe', { direction: 'up' })];
      case 'swipe': {
        const direction = isRaw(value) && typeof value.direction === 'string' ? value.direction.toLowerCase() : undefined;
        return direction && ['up', 'down', 'left', 'right'].includes(direction) ? [action('swipe', { direction })] : bad(sayProblem('maestro.swipeDirection'));
      }
      case 'scrollUntilVisible': {
        if (!isRaw(value)) return bad(sayProblem('maestro.takesElement'));
        const selector = this.selector(value.element, offset, name);
        if (!selector) return [];
        const direction = typeof value.direction === 'string' ? value.direction.toLowerCase() : 'down';
        if (!['up', 'down', 'left', 'right'].includes(direction)) return bad(sayProblem('maestro.direction'));
        return [{ scroll_until_visible: { target: selector.locator, direction: direction as 'down', ...(value.timeout !== undefined && { timeout: Number(value.timeout) }) } }];
      }
      case 'stopApp':
      case 'killApp':
        return [action('stop_app', { app: typeof value === 'string' ? value : this.appId() })];
      case 'clearState':
        return [action('clear_app', { app: typeof value === 'string' ? value : this.appId() })];
      case 'openLink':
        return typeof value === 'string' ? [action('open_url', { url: value })] : isRaw(value) && typeof value.link === 'string' ? [action('open_url', { url: value.link })] : bad(sayProblem('maestro.takesLink'));
      case 'assertWithAI':
        return isRaw(value) && typeof value.assertion === 'string' ? [{ ask_ai: { question: value.assertion, kind: 'yes-no' } }] : bad(sayProblem('maestro.takesAssertion'));
      case 'extractTextWithAI':
        return isRaw(value) && typeof value.query === 'string'
          ? [{ ask_ai: { question: value.query, kind: 'extract', into: typeof value.outputVariable === 'string' ? value.outputVariable : 'aiOutput' } }]
          : bad(sayProblem('maestro.takesQuery'));
      case 'runFlow':
        return this.runFlow(value, at, offset);
      case 'repeat':
      case 'retry': {
        if (!isRaw(value) || !Array.isArray(value.commands)) return bad(sayProblem('maestro.takesCommands'));
        const inner = this.commands(value.commands, [...at, name, 'commands']).steps;
        if (!inner.length) return [];
        if (name === 'retry') return [{ retry: { max: Math.min(3, Number(value.maxRetries ?? 1)), steps: inner } }];
        const condition = this.condition(value.while, offset);
        const times = value.times === undefined ? undefined : Number(value.times);
        return [{ repeat: { ...(times !== undefined && { times }), ...(condition && { while: condition }), steps: inner } }];
      }
      default:
        return bad(sayProblem(['runScript', 'evalScript', 'setLocation', 'travel', 'addMedia', 'startRecording', 'stopRecording', 'setAirplaneMode', 'toggleAirplaneMode'].includes(name) ? 'maestro.notRun' : 'maestro.notRunYet'));
    }
  }

  private runFlow(value: unknown, at: (string | number)[], offset: number): FlowStep[] {
    const given = typeof value === 'string' ? { file: value } : isRaw(value) ? value : {};
    const condition = this.condition(given.when, offset);
    const control = condition ? { when: condition } : {};
    if (Array.isArray(given.commands)) {
      const inner = this.commands(given.commands, [...at, 'runFlow', 'commands']).steps;
      return inner.length ? [{ run_flow: { steps: inner }, ...control }] : [];
    }
    if (typeof given.file !== 'string') {
      this.problem(offset, sayProblem('maestro.runFlowTakes'));
      return [];
    }
    const read = this.options.include?.(given.file);
    if (!read || 'problem' in read) {
      this.problem(offset, read ? sayProblem('maestro.runFlowProblems', { file: given.file, problemsSaid: problemSaid(read.problem) }) : sayProblem('maestro.runFlowNoFolder', { file: given.file }));
      return [];
    }
    const env = isRaw(given.env) ? Object.fromEntries(Object.entries(given.env).map(([key, item]) => [key, String(item)])) : {};
    const result = parseMaestroFlow(read.text, { vars: { ...this.options.vars, ...env }, depth: (this.options.depth ?? 0) + 1, ...(read.include && { include: read.include }) }, false);
    if (!result.ok) {
      this.problem(offset, sayProblem('maestro.runFlowProblems', { file: given.file, problemsSaid: saidList(result.problems.map((problem) => (problem.line ? { code: 'flowFile.atLine', values: { line: problem.line, problemSaid: problemSaid(problem) } } : locatedSaid(problem)))) }));
      return [];
    }
    return [{ run_flow: { file: given.file, steps: result.flow.steps }, ...control }];
  }

  private condition(value: unknown, offset: number): StepCondition | undefined {
    if (value === undefined) return undefined;
    if (isRaw(value) && (value.visible !== undefined || value.notVisible !== undefined)) {
      const which = value.visible !== undefined ? 'visible' : 'notVisible';
      const selector = this.selector(value[which], offset, 'when');
      if (selector?.locator.label) return which === 'visible' ? { visible: selector.locator.label } : { not_visible: selector.locator.label };
    }
    this.problem(offset, sayProblem('maestro.when'));
    return undefined;
  }

  /** A Maestro selector (a text, or a map) as our locator; a field amc does not read is a problem, never dropped. */
  private selector(value: unknown, offset: number, command: string): { locator: Locator; optional: boolean } | null {
    const fields: Raw = typeof value === 'string' || typeof value === 'number' ? { text: String(value) } : isRaw(value) ? value : {};
    const unread = Object.keys(fields).filter((key) => !SELECTOR_READ.has(key));
    if (unread.length) {
      const known = unread.every((key) => SELECTOR_FIELDS.has(key));
      this.problem(offset, sayProblem(known ? 'maestro.notMatchedBy' : 'maestro.unknownSelectorField', { command, fields: unread.map((key) => `\`${key}\``).join(', ') }));
      return null;
    }
    const locator: Locator = {};
    if (fields.text !== undefined) {
      if (typeof fields.text !== 'string' && typeof fields.text !== 'number') return this.selectorProblem(offset, command, sayProblem('maestro.textIsText'));
      const read = pattern(String(fields.text));
      if ('problem' in read) return this.selectorProblem(offset, command, read.problem);
      if ('pattern' in read) locator.labelPattern = read.pattern;
      else locator.label = read.literal;
    }
    if (fields.id !== undefined) {
      if (typeof fields.id !== 'string') return this.selectorProblem(offset, command, sayProblem('maestro.idIsText'));
      const read = pattern(fields.id.replace(/^[\w.]+:id\//, ''));
      if ('problem' in read) return this.selectorProblem(offset, command, read.problem);
      if ('pattern' in read) locator.idPattern = read.pattern;
      else locator.resourceId = read.literal;
    }
    if (fields.index !== undefined) {
      const index = Number(fields.index);
      if (!Number.isInteger(index) || index < 0 || index > LOCATOR_INDEX_MAX) return this.selectorProblem(offset, command, sayProblem('maestro.index', { max: LOCATOR_INDEX_MAX }));
      locator.index = index;
    }
    const state: LocatorState = {};
    for (const name of STATES) {
      if (fields[name] === undefined) continue;
      if (typeof fields[name] !== 'boolean') return this.selectorProblem(offset, command, sayProblem('maestro.trueOrFalse', { name }));
      state[name] = fields[name];
    }
    if (Object.keys(state).length) locator.state = state;
    const size: LocatorSize = {};
    for (const name of SIZES) {
      if (fields[name] === undefined) continue;
      const pixels = Number(fields[name]);
      if (!Number.isInteger(pixels) || pixels < 0 || pixels > LOCATOR_SIZE_MAX) return this.selectorProblem(offset, command, sayProblem('maestro.pixels', { name, max: LOCATOR_SIZE_MAX }));
      size[name] = pixels;
    }
    if (size.tolerance !== undefined && size.width === undefined && size.height === undefined) return this.selectorProblem(offset, command, sayProblem('maestro.toleranceAlone'));
    if (size.width !== undefined || size.height !== undefined) locator.size = size;
    const relative: LocatorRelations = {};
    for (const relation of LOCATOR_RELATIONS) {
      const given = fields[relation];
      if (given === undefined) continue;
      if (relation === 'containsDescendants') {
        if (!Array.isArray(given) || !given.length) return this.selectorProblem(offset, command, sayProblem('maestro.descendants'));
        const inner = given.map((item) => this.selector(item, offset, `${command} ${relation}`));
        if (inner.some((item) => !item)) return null;
        relative.containsDescendants = inner.map((item) => item!.locator);
      } else {
        const inner = this.selector(given, offset, `${command} ${relation}`);
        if (!inner) return null;
        relative[relation] = inner.locator;
      }
    }
    if (Object.keys(relative).length) locator.relative = relative;
    if (locator.label === undefined && locator.labelPattern === undefined && locator.resourceId === undefined && locator.idPattern === undefined && !locator.relative && !locator.size) {
      return this.selectorProblem(offset, command, sayProblem('maestro.giveSelector'));
    }
    return { locator, optional: fields.optional === true };
  }

  private selectorProblem(offset: number, command: string, problem: ProblemMessage): null {
    this.problem(offset, sayProblem('maestro.command', { command, problemSaid: problemSaid(problem) }));
    return null;
  }
}

const TAPS = { tapOn: 'tap', doubleTapOn: 'double_tap', longPressOn: 'long_press' } as const;

/** Maestro's random inputs are this long unless `length` says otherwise. */
const RANDOM_LENGTH = 8;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const FIRST_NAMES = ['Ada', 'Bruno', 'Chen', 'Dalia', 'Emeka', 'Freya', 'Goran', 'Hana', 'Ines', 'Jonas', 'Kenji', 'Lucia', 'Mateo', 'Nadia', 'Omar', 'Priya'];
const LAST_NAMES = ['Abbott', 'Baptiste', 'Castro', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Huang', 'Ivanova', 'Jensen', 'Kowalski', 'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Petrov'];
const pick = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
const oneOf = (names: readonly string[]) => names[randomInt(names.length)]!;

/** A fresh value for Maestro's inputRandom* commands, drawn when the file is read (the report shows what was typed). */
function randomInput(command: string, length: number): string {
  switch (command) {
    case 'inputRandomNumber':
      return pick('123456789', 1) + pick('0123456789', length - 1);
    case 'inputRandomEmail':
      return `${pick(LETTERS, length)}@example.com`;
    case 'inputRandomPersonName':
      return `${oneOf(FIRST_NAMES)} ${oneOf(LAST_NAMES)}`;
    default:
      return pick(LETTERS, length);
  }
}

/** The selector's text when it is nothing more than a text (a check on the screen's texts), else undefined. */
const plainText = (locator: Locator): string | undefined => (Object.keys(locator).length === 1 ? locator.label : undefined);

const action = (tool: string, args: Record<string, unknown>): ActionStep => ({ tool, args });

/** A Maestro flow file as our Flow (its appId as the app, its name or appId in the goal), or its problems with their lines. */
export function parseMaestroFlow(text: string, options: FlowFileOptions = {}, withHooks = true): FlowFileResult {
  let appId = '';
  const reader = new Reader(text, options, () => appId);
  const parsed = reader.parse();
  if (!parsed) return { ok: false, problems: reader.problems };
  const { header } = parsed;
  if (typeof header.appId !== 'string' || !header.appId) return { ok: false, problems: [{ line: 1, column: 1, ...sayProblem('maestro.headerAppId') }] };
  appId = header.appId;
  const unknownHeader = Object.keys(header).filter((key) => !['appId', 'name', 'tags', 'env', 'onFlowStart', 'onFlowComplete'].includes(key));
  if (unknownHeader.length) return { ok: false, problems: [{ line: 1, column: 1, ...sayProblem('maestro.headerUnknown', { fields: unknownHeader.map((key) => `\`${key}\``).join(', ') }) }] };
  const body = reader.commands(parsed.commands, []);
  // The hooks run around the commands; onFlowComplete's steps run after a failure too (the flow's alwaysFrom).
  const hook = (key: 'onFlowStart' | 'onFlowComplete') => (withHooks && Array.isArray(header[key]) ? new Reader(text, options, () => appId) : null);
  const start = hook('onFlowStart');
  const before = start ? commandsOfHeader(start, text, 'onFlowStart') : { steps: [], lines: [] };
  const complete = hook('onFlowComplete');
  const after = complete ? commandsOfHeader(complete, text, 'onFlowComplete') : { steps: [], lines: [] };
  const problems = [...reader.problems, ...(start?.problems ?? []), ...(complete?.problems ?? [])];
  const env = isRaw(header.env) ? Object.fromEntries(Object.entries(header.env).map(([key, item]) => [key, String(item)])) : {};
  const values = { ...env, ...options.vars };
  const steps = [...before.steps, ...body.steps, ...after.steps];
  for (const { text: written } of stringsWithPaths(steps)) {
    for (const name of referencedVariables(written)) {
      const kept = (step: FlowStep) => ('ask_ai' in step && step.ask_ai.into === name) || ('copy_text' in step && step.copy_text.into === name);
      if (!Object.hasOwn(values, name) && !stepsWithin(steps).some(kept)) {
        problems.push(name === COPIED_TEXT ? sayProblem('maestro.noCopiedText') : sayProblem('maestro.noValue', { variable: `\${${name}}`, name }));
      }
    }
  }
  if (problems.length) return { ok: false, problems: dedupe(problems).sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)) };
  if (!steps.length) return { ok: false, problems: [{ line: 1, column: 1, ...sayProblem('maestro.noCommands') }] };
  const goal = typeof header.name === 'string' && header.name ? header.name : wordCode('maestro.defaultGoal', { app: appId }, options.words);
  const alwaysFrom = after.steps.length ? before.steps.length + body.steps.length : undefined;
  const judged = FlowSchema.safeParse({ goal, app: appId, vars: env, steps, lines: [...before.lines, ...body.lines, ...after.lines], ...(alwaysFrom !== undefined && { alwaysFrom }) });
  if (!judged.success) return { ok: false, problems: [{ line: 1, column: 1, ...sayProblem('flowFile.cannotCarryOutWhy', { why: judged.error.issues[0]?.message ?? '' }) }] };
  return { ok: true, flow: { ...judged.data, steps: fillVariables(judged.data.steps, values), goal: fillVariables(judged.data.goal, values) } };
}

/** Every step, the steps inside blocks too. */
function stepsWithin(steps: readonly FlowStep[]): FlowStep[] {
  return steps.flatMap((step) => [step, ...stepsWithin('run_flow' in step ? step.run_flow.steps : 'repeat' in step ? step.repeat.steps : 'retry' in step ? step.retry.steps : [])]);
}

/** The commands of a header hook, read from the header document. */
function commandsOfHeader(reader: Reader, text: string, key: string): { steps: FlowStep[]; lines: number[] } {
  const docs = parseAllDocuments(text);
  const first = Array.isArray(docs) ? docs[0] : undefined;
  const header = first ? (contentOf(first) as Raw | undefined) : undefined;
  const list = header?.[key];
  if (!Array.isArray(list)) return { steps: [], lines: [] };
  // The hooks' lines are the header's; the reader locates by the commands' document, so a hook's problems say its name.
  const made = reader.commands(list, []);
  return { steps: made.steps, lines: made.lines.map(() => 1) };
}

function dedupe(problems: FlowProblem[]): FlowProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.line}:${problem.column}:${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

