import { isMap, isNode, isPair, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { ActionStepSchema, FLOW_FILE_MAX_BYTES, FLOW_MAX_DEPTH, FLOW_MAX_STEPS, FlowSchema, objectNameProblem, type ActionStep, type AskAi, type Flow, type FlowStep, type Locator, type StepCondition } from '../../shared/flow';
import { ACTION_TOOL_NAMES, ACTION_TOOLS } from '../tools/registry';
import { isMaestroFlow, parseMaestroFlow } from './maestro-file';
import type { FlowFileOptions, FlowFileResult, FlowProblem } from './flow-file-types';
import {
  aimsAtPoint,
  BLOCK_FORMS,
  flowArgumentsSchema,
  fileStepSchemas,
  LOCATOR_FIELDS,
  loneRequiredArgument,
  STEP_FIELDS,
  takesTarget,
} from './flow-file-schema';
import { issueWords, unionBranchIssues } from './flow-problems';
import { flowProblemsWords, locatedSaid, problemLineWords, problemSaid, problemsSaid, saidOf, sayProblem, type ProblemSaying } from './flow-problem-said';
import { saidList, type Said } from '../../shared/said';
import type { Words } from '../../shared/i18n/translate';
import { fillVariables, referencedVariables, stringsWithPaths } from './flow-variables';

/**
 * A flow file (YAML) to a Flow and back. Reading checks everything a run would trip over later — the YAML, the
 * schema, each tool's arguments, every `${variable}` — and says where, by line and column, in plain words.
 */

type Path = (string | number)[];

export type { FlowFileOptions, FlowFileResult, FlowProblem } from './flow-file-types';

/** "line 7, column 5: …" */
export const problemLine = (problem: FlowProblem): string => problemLineWords(problem);

/** The flow file's problems, one line each, for an error message. */
export class FlowFileError extends Error {
  override name = 'FlowFileError';
  constructor(
    readonly problems: readonly FlowProblem[],
    readonly source?: string,
  ) {
    super(flowProblemsWords(problems, source));
  }

  /** The same lines in a terminal's language. */
  wordedIn(words: Words): string {
    return flowProblemsWords(this.problems, this.source, words);
  }
}

const isPlainMap = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === 'object' && !Array.isArray(value);
/** The steps that are not a tool, by the key that names them. */
const WRITTEN_STEP_KINDS = ['ai', 'assert', 'ask_ai', 'copy_text', 'wait_until', 'wait_for_settle', 'scroll_until_visible', 'run_flow', 'repeat', 'retry'] as const;
const STEP_KINDS = { tools: ACTION_TOOL_NAMES.join(', '), kinds: WRITTEN_STEP_KINDS.slice(0, -1).join(', '), lastKind: WRITTEN_STEP_KINDS.at(-1)! };

/** Where a path points in the YAML: the deepest node that exists on it (a missing field points at its map). */
function locate(doc: Document, counter: LineCounter, path: readonly PropertyKey[], key?: string): { line: number; column: number } {
  let at: readonly PropertyKey[] = path;
  let node: unknown = doc.getIn(at as Path, true);
  while (!isNode(node) && at.length > 0) {
    at = at.slice(0, -1);
    node = at.length ? doc.getIn(at as Path, true) : doc.contents;
  }
  if (key !== undefined && isMap(node)) {
    const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key);
    if (pair && isNode(pair.key)) node = pair.key;
  }
  const offset = isNode(node) && node.range ? node.range[0] : 0;
  const { line, col } = counter.linePos(offset);
  return { line, column: col };
}

/** Which form a step is written in (a key of fileStepSchemas), or why it is none. */
function stepForm(step: unknown): string | { problem: ProblemSaying } {
  if (!isPlainMap(step)) return { problem: sayProblem('flowFile.notAStep', STEP_KINDS) };
  if ('tool' in step) return 'action';
  const keys = Object.keys(step);
  for (const kind of WRITTEN_STEP_KINDS) if (keys.includes(kind)) return kind;
  const tool = keys.find((key) => ACTION_TOOLS.has(key));
  if (tool) return `tool:${tool}`;
  return { problem: keys.length ? sayProblem('flowFile.notAStepKind', { key: keys[0]!, ...STEP_KINDS }) : sayProblem('flowFile.emptyStep', STEP_KINDS) };
}

/** A short-form action step (`- tap: {text: "Wi-Fi"}`) as FlowSchema's step. */
function actionFromShortForm(tool: string, value: unknown): ActionStep {
  const lone = loneRequiredArgument(tool);
  if (!isPlainMap(value)) return { tool, args: lone && value !== null ? { [lone]: value } : {} };
  const argumentNames = Object.keys(flowArgumentsSchema(tool)?.shape ?? {});
  const args: Record<string, unknown> = {};
  const inlineTarget: Record<string, unknown> = {};
  const fields: Partial<Pick<ActionStep, (typeof STEP_FIELDS)[number]>> = {};
  for (const [key, item] of Object.entries(value)) {
    if (argumentNames.includes(key)) args[key] = item;
    else if ((STEP_FIELDS as readonly string[]).includes(key)) Object.assign(fields, { [key]: item });
    else if ((LOCATOR_FIELDS as string[]).includes(key)) inlineTarget[key] = item;
  }
  const target = Object.keys(inlineTarget).length ? (inlineTarget as Locator) : fields.target;
  return { tool, args, ...fields, ...(target ? { target } : {}) };
}

/** An `ask_ai` as written (a bare question, or a map whose `into` means extract) as FlowSchema's step. */
function askFromFileForm(value: unknown): { ask_ai: AskAi } {
  if (typeof value === 'string') return { ask_ai: { question: value, kind: 'yes-no' } };
  const ask = value as Omit<AskAi, 'kind'> & { kind?: AskAi['kind'] };
  return { ask_ai: { ...ask, kind: ask.kind ?? (ask.into ? 'extract' : 'yes-no') } };
}

/** A step checked against its form's schema (so defaults are filled in), in FlowSchema's form. */
function normalizedStep(form: string, step: Record<string, unknown>): FlowStep {
  if (form.startsWith('tool:')) {
    const tool = form.slice('tool:'.length);
    return actionFromShortForm(tool, step[tool]);
  }
  if (form === 'ask_ai') return { ...step, ...askFromFileForm(step.ask_ai) } as FlowStep;
  if (form === 'scroll_until_visible' && typeof step.scroll_until_visible === 'string') {
    return { ...step, scroll_until_visible: { target: { text: step.scroll_until_visible }, direction: 'down' } } as FlowStep;
  }
  return step as FlowStep;
}

/** What the checks of one step found, with source paths (the file's own form). */
interface Found {
  path: Path;
  message: string;
  said?: Said;
  key?: string;
}

function schemaProblems(schema: z.ZodType, value: unknown, base: Path, valueAt: (path: readonly PropertyKey[]) => unknown): Found[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  const flat = result.error.issues.flatMap((issue) => {
    const path = [...base, ...(issue.path as Path)];
    return issue.code === 'invalid_union' ? unionBranchIssues(issue, path, valueAt(path)) : [{ issue, path }];
  });
  // A refinement ("a locator needs at least one of …") adds nothing where the same map already has a clearer problem.
  const pathsWithOthers = new Set(flat.filter(({ issue }) => issue.code !== 'custom').map(({ path }) => JSON.stringify(path)));
  return flat
    .filter(({ issue, path }) => issue.code !== 'custom' || !pathsWithOthers.has(JSON.stringify(path)))
    .map(({ issue, path }) => ({
      path,
      ...issueWords(issue, path, valueAt),
      ...(issue.code === 'unrecognized_keys' ? { key: issue.keys[0] } : {}),
    }));
}

/** A tool that aims at one point needs it: a target, or x and y. */
function missingTarget(step: ActionStep): ProblemSaying | undefined {
  if (!aimsAtPoint(step.tool) || step.target || step.point !== undefined || (step.args.x !== undefined && step.args.y !== undefined)) return undefined;
  return sayProblem('flowFile.needsTarget', { tool: step.tool });
}

/** The checks a step's tool brings: it exists, its arguments fit its schema, it has what it acts on. */
function toolProblems(step: ActionStep, form: string, base: Path, valueAt: (path: readonly PropertyKey[]) => unknown): Found[] {
  if (!ACTION_TOOLS.has(step.tool)) return [{ path: [...base, 'tool'], ...sayProblem('flowFile.notATool', { tool: step.tool, tools: ACTION_TOOL_NAMES.join(', ') }) }];
  const problems: Found[] = [];
  if (form === 'action') problems.push(...schemaProblems(flowArgumentsSchema(step.tool)!, step.args, [...base, 'args'], valueAt));
  // The short form's parts, put together, must still make FlowSchema's step (an inline target needs a field that names it).
  else problems.push(...schemaProblems(ActionStepSchema, step, [], valueAt).map((problem) => ({ ...problem, path: [...base, step.tool] })));
  if (step.target && !takesTarget(step.tool)) problems.push({ path: [...base, form === 'action' ? 'target' : step.tool], ...sayProblem('flowFile.takesNoTarget', { tool: step.tool }) });
  const noTarget = missingTarget(step);
  if (noTarget) problems.push({ path: form === 'action' ? base : [...base, step.tool], ...noTarget });
  return problems;
}

/** The variable a step keeps a value in while the flow runs (an ask_ai's extracted answer, a copy_text's words). */
const keptInto = (step: FlowStep): string | undefined => ('ask_ai' in step ? step.ask_ai.into : 'copy_text' in step ? step.copy_text.into : undefined);

/** Every `${name}` must have a value: from vars, --var, or an earlier ask_ai or copy_text that keeps a value in it. */
function variableProblems(raw: Record<string, unknown>, values: Readonly<Record<string, string>>, steps: readonly (FlowStep | undefined)[]): Found[] {
  const problems: Found[] = [];
  const extracted = new Set<string>();
  const check = (value: unknown, base: Path) => {
    for (const { path, text } of stringsWithPaths(value, base)) {
      for (const name of referencedVariables(text)) {
        if (Object.hasOwn(values, name) || extracted.has(name)) continue;
        const later = steps.find((step) => step && keptInto(step) === name);
        const code = later ? ('ask_ai' in later ? 'flowFile.usedBeforeExtracted' : 'flowFile.usedBeforeKept') : 'flowFile.noValue';
        problems.push({ path, ...sayProblem(code, { variable: `\${${name}}`, name }) });
      }
    }
  };
  check(raw.goal, ['goal']);
  (Array.isArray(raw.steps) ? raw.steps : []).forEach((step: unknown, index) => {
    check(step, ['steps', index]);
    const normalized = steps[index];
    const kept = normalized && keptInto(normalized);
    if (kept) extracted.add(kept);
  });
  return problems;
}

/** `--var` names the flow neither declares nor uses: almost always a typo, which would silently change nothing. */
function unusedOverrides(raw: Record<string, unknown>, overrides: Readonly<Record<string, string>>, declared: readonly string[]): FlowProblem[] {
  const used = new Set(stringsWithPaths([raw.goal, raw.steps]).flatMap(({ text }) => referencedVariables(text)));
  return Object.keys(overrides)
    .filter((name) => !declared.includes(name) && !used.has(name))
    .map((name) => (declared.length || used.size ? sayProblem('flowFile.unusedVarKnown', { name, names: [...new Set([...declared, ...used])].join(', ') }) : sayProblem('flowFile.unusedVar', { name })));
}

/** How many run_flow files deep a flow may go: deeper, a file most likely runs itself. */
const INCLUDE_DEPTH = 8;

/** Another flow file a `run_flow` names, read with the given variables: its steps, or its problems in one line. */
function includeFlow(file: string, vars: Record<string, string>, options: FlowFileOptions): { steps: FlowStep[] } | { problem: ProblemSaying } {
  if (!options.include) return { problem: sayProblem('flowFile.includeNoFolder', { file }) };
  const depth = options.depth ?? 0;
  if (depth >= INCLUDE_DEPTH) return { problem: sayProblem('flowFile.includeTooDeep', { file, depth: INCLUDE_DEPTH }) };
  const read = options.include(file);
  if ('problem' in read) return { problem: sayProblem('flowFile.includeProblems', { file, problemsSaid: problemsSaid([read.problem]) }) };
  const result = parseFlowFile(read.text, { vars, depth: depth + 1, ...(read.include && { include: read.include }) });
  if (!result.ok) return { problem: sayProblem('flowFile.includeProblems', { file, problemsSaid: saidList(result.problems.map(locatedSaid)) }) };
  return { steps: result.flow.steps };
}


/** Why a file of `bytes` is refused as a flow file. */
export function flowFileTooBig(bytes: number): ProblemSaying {
  return sayProblem('flowFile.tooBig', { size: (bytes / 1_000_000).toFixed(1), max: FLOW_FILE_MAX_BYTES / 1_000_000 });
}

const TOO_DEEP = sayProblem('flowFile.tooDeep', { max: FLOW_MAX_DEPTH });

/** The YAML reader's own words, quoted after ours. */
const notYaml = (why: string): ProblemSaying => sayProblem('flowFile.notYaml', { why });

/** How deep a value nests, counted up to one more than a flow may (so a hostile file costs no more than that). */
function depthOf(value: unknown, depth = 0): number {
  if (depth > FLOW_MAX_DEPTH || !value || typeof value !== 'object') return depth;
  let deepest = depth;
  for (const item of Array.isArray(value) ? value : Object.values(value)) deepest = Math.max(deepest, depthOf(item, depth + 1));
  return deepest;
}

/** The YAML read into a document and plain data, or the problems that stopped it (located where the reader stopped). */
function readYaml(text: string): { doc: Document; counter: LineCounter; raw: unknown } | { problems: FlowProblem[] } {
  const counter = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    // The reader recurses per level: a file nested thousands deep ends it before any check could.
    if (error instanceof RangeError) return { problems: [{ line: 1, column: 1, ...TOO_DEEP }] };
    throw error;
  }
  if (doc.errors.length) {
    return {
      problems: doc.errors.map((error) => {
        const position = error.linePos?.[0] ?? counter.linePos(error.pos[0]);
        const problem = /call stack/i.test(error.message) ? TOO_DEEP : notYaml(error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''));
        return { line: position.line, column: position.col, ...problem };
      }),
    };
  }
  try {
    return { doc, counter, raw: doc.toJS() };
  } catch (error) {
    if (error instanceof RangeError) return { problems: [{ line: 1, column: 1, ...TOO_DEEP }] };
    // Aliases that would expand beyond the reader's limit (a YAML bomb), in its words.
    return { problems: [{ line: 1, column: 1, ...notYaml(error instanceof Error ? error.message.split('\n')[0]! : String(error)) }] };
  }
}

/**
 * Reads a flow file: the Flow with its variables filled in, or every problem found, each with its line and column.
 * The file is bounded before anything else: its size, how deep it nests and how many steps it has.
 */
export function parseFlowFile(text: string, options: FlowFileOptions = {}): FlowFileResult {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > FLOW_FILE_MAX_BYTES) return { ok: false, problems: [flowFileTooBig(bytes)] };
  // A Maestro flow (its appId header, `---`, the commands) is the same flow in another syntax.
  if (isMaestroFlow(text)) return parseMaestroFlow(text, options);
  const read = readYaml(text);
  if ('problems' in read) return { ok: false, problems: read.problems };
  const { doc, counter, raw } = read;
  if (!isPlainMap(raw)) return { ok: false, problems: [{ line: 1, column: 1, ...sayProblem('flowFile.notAMap') }] };
  if (depthOf(raw) > FLOW_MAX_DEPTH) return { ok: false, problems: [{ line: 1, column: 1, ...TOO_DEEP }] };
  if (Array.isArray(raw.steps) && raw.steps.length > FLOW_MAX_STEPS) {
    return { ok: false, problems: [{ ...locate(doc, counter, ['steps']), ...sayProblem('flowFile.tooManySteps', { steps: raw.steps.length, max: FLOW_MAX_STEPS }) }] };
  }
  const valueAt = (path: readonly PropertyKey[]) => path.reduce<unknown>((value, key) => (isPlainMap(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[key] : undefined), raw);

  // The flow's own fields; each step is checked in the form it is written in, below.
  const found: Found[] = schemaProblems(FlowSchema.extend({ steps: z.array(z.unknown()).min(1) }), raw, [], valueAt);
  // zod's record passes over a `__proto__` key without a word (it keeps it out of what it returns): named here.
  for (const name of isPlainMap(raw.vars) ? Object.keys(raw.vars) : []) {
    const problem = objectNameProblem(name);
    if (problem && !found.some((each) => each.message.includes(problem))) found.push({ path: ['vars'], key: name, ...sayProblem('flowFile.objectName', { name }) });
  }

  const rawSteps: unknown[] = Array.isArray(raw.steps) ? raw.steps : [];
  const schemas: Record<string, z.ZodType> = fileStepSchemas();
  // By position; a step with problems of its own (or inside it) has none here (its variables are still checked).
  const readSteps = (list: unknown[], base: Path): (FlowStep | undefined)[] =>
    list.map((step, index) => {
      const at: Path = [...base, index];
      const form = stepForm(step);
      if (typeof form !== 'string') {
        found.push({ path: at, ...form.problem });
        return undefined;
      }
      const problems = schemaProblems(schemas[form]!, step, at, valueAt);
      found.push(...problems);
      if (problems.length) return undefined;
      const parsed = schemas[form]!.parse(step) as Record<string, unknown>;
      if ((BLOCK_FORMS as readonly string[]).includes(form)) return readBlock(form, parsed, at);
      const normalized = normalizedStep(form, parsed);
      if ('tool' in normalized) found.push(...toolProblems(normalized, form, at, valueAt));
      return normalized;
    });
  const complete = (list: (FlowStep | undefined)[]): FlowStep[] | undefined => (list.every(Boolean) ? (list as FlowStep[]) : undefined);
  const readBlock = (form: string, parsed: Record<string, unknown>, at: Path): FlowStep | undefined => {
    const controls = { ...(parsed.optional !== undefined && { optional: parsed.optional as boolean }), ...(parsed.when !== undefined && { when: parsed.when as StepCondition }) };
    if (form === 'repeat' || form === 'retry') {
      const block = parsed[form] as { steps: unknown[] };
      const inner = complete(readSteps(block.steps, [...at, form, 'steps']));
      return inner && ({ [form]: { ...block, steps: inner }, ...controls } as FlowStep);
    }
    const given = parsed.run_flow as string | { file?: string; steps?: unknown[]; vars?: Record<string, string> };
    const file = typeof given === 'string' ? given : given.file;
    const vars = { ...(typeof given === 'string' ? {} : given.vars), ...(parsed.vars as Record<string, string> | undefined) };
    if (file === undefined) {
      if (Object.keys(vars).length) found.push({ path: [...at, 'run_flow'], ...sayProblem('flowFile.varsWithInline') });
      const inner = complete(readSteps((given as { steps: unknown[] }).steps, [...at, 'run_flow', 'steps']));
      return inner && { run_flow: { steps: inner }, ...controls };
    }
    const included = includeFlow(file, vars, options);
    if ('problem' in included) {
      found.push({ path: [...at, 'run_flow'], ...included.problem });
      return undefined;
    }
    return { run_flow: { file, steps: included.steps, ...(Object.keys(vars).length && { vars }) }, ...controls };
  };
  const steps = readSteps(rawSteps, ['steps']);

  const declared = isPlainMap(raw.vars) ? Object.keys(raw.vars) : [];
  const values = { ...(isPlainMap(raw.vars) ? (raw.vars as Record<string, string>) : {}), ...options.vars };
  found.push(...variableProblems(raw, values, steps));
  const outside = unusedOverrides(raw, options.vars ?? {}, declared);
  if (found.length || outside.length) {
    const located = found.map(({ path, message, said, key }) => ({ ...locate(doc, counter, path, key), message, ...(said && { said }) }));
    return { ok: false, problems: [...located.sort((a, b) => a.line - b.line || a.column - b.column), ...outside] };
  }

  // The file's forms normalized; FlowSchema is the one judge of what a flow is. What it still finds is worded and
  // located as every other problem (the step's path is the file's, down to the step), never a library's own report.
  const judged = FlowSchema.safeParse({ ...raw, steps });
  if (!judged.success) {
    const problems = schemaProblems(FlowSchema, { ...raw, steps }, [], valueAt).map(({ path, message, said, key }) => ({ ...locate(doc, counter, path, key), message, ...(said && { said }) }));
    return { ok: false, problems: problems.length ? problems : [{ line: 1, column: 1, ...sayProblem('flowFile.cannotCarryOut') }] };
  }
  const flow = judged.data;
  if (options.keepReferences) return { ok: true, flow };
  return { ok: true, flow: { ...flow, goal: fillVariables(flow.goal, values), steps: fillVariables(flow.steps, values) } };
}

/**
 * The checks a file's steps get beyond FlowSchema (each tool exists and its arguments fit, every `${variable}` has a
 * value), for a flow that comes as data instead of a file: a fleet job's payload. Each problem names its step, and
 * carries its code for a reader in another language.
 */
export function flowProblems(flow: Flow): ProblemSaying[] {
  const valueAt = (path: readonly PropertyKey[]) => path.reduce<unknown>((value, key) => (isPlainMap(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[key] : undefined), flow);
  const found = [
    ...flow.steps.flatMap((step, index) => ('tool' in step ? toolProblems(step, 'action', ['steps', index], valueAt) : [])),
    ...variableProblems(flow, flow.vars, flow.steps),
  ];
  return found.map((problem) => (problem.path[0] === 'steps' && typeof problem.path[1] === 'number' ? sayProblem('flowFile.atStep', { step: problem.path[1] + 1, problemSaid: problemSaid(problem) }) : { message: problem.message, said: saidOf(problem) }));
}
