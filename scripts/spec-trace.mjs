#!/usr/bin/env node
// Which openspec Scenarios does no test name? Usage: node scripts/spec-trace.mjs [--strict] [--root DIR]
// Scenario names come from openspec/specs/*/spec.md (`#### Scenario: name`); test titles come from the test files'
// TypeScript syntax trees (describe/it/test calls), so a title reads as vitest shows it (escapes such as \' decoded,
// a title kept in a file constant looked up; what only runs can tell, like `${x}`, matches nothing). A Scenario is named when a test's full title (describe blocks and test, as vitest joins them)
// contains it, case, spacing and markdown marks aside. For each unnamed Scenario the closest test title is shown.
// --strict exits 1 when any Scenario is unnamed.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const argv = process.argv.slice(2);
const rootIndex = argv.indexOf('--root');
const root = path.resolve(rootIndex >= 0 ? argv[rootIndex + 1] : path.join(path.dirname(new URL(import.meta.url).pathname), '..'));
const strict = argv.includes('--strict');

const TEST_FILE = /\.test\.(ts|tsx|mts|js|mjs)$/;
const SUITE_CALLS = new Set(['describe', 'suite']);
const TEST_CALLS = new Set(['it', 'test', 'bench']);
/** Where a title has an interpolation (`${x}`): it matches nothing, so a Scenario cannot be named through one. */
const HOLE = '\u0000';

function filesUnder(dir, keep) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full, keep) : keep(full) ? [full] : [];
  });
}

/** `it`, `it.only`, `it.each([...])`, `test.concurrent`...: whether the call is a test or a suite, and a table (`each`/`for`). */
function callKind(expression) {
  let callee = expression;
  let table = false;
  while (true) {
    if (ts.isCallExpression(callee)) callee = callee.expression;
    else if (ts.isPropertyAccessExpression(callee)) {
      if (['each', 'for'].includes(callee.name.text)) table = true;
      callee = callee.expression;
    } else break;
  }
  if (!ts.isIdentifier(callee)) return null;
  if (SUITE_CALLS.has(callee.text)) return { kind: 'suite', table };
  if (TEST_CALLS.has(callee.text)) return { kind: 'test', table };
  return null;
}

/** The `const NAME = <initializer>` declarations of a file, by name. */
function constants(source) {
  const found = new Map();
  const visit = (node) => {
    if (ts.isVariableStatement(node) && node.declarationList.flags & ts.NodeFlags.Const) {
      for (const declaration of node.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer) found.set(declaration.name.text, declaration.initializer);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const unwrap = (node) => (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node) ? unwrap(node.expression) : node);

/**
 * The titles a title expression can have, as vitest would print them (escapes decoded by the compiler). A literal
 * has one; a file constant holding a string, or an object of strings indexed by a variable, has its values;
 * interpolations and anything computed become holes.
 */
function titleTexts(node, consts, seen = new Set()) {
  node = unwrap(node);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node)) return [node.head.text + node.templateSpans.map((span) => HOLE + span.literal.text).join('')];
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const rights = titleTexts(node.right, consts, seen);
    return titleTexts(node.left, consts, seen).flatMap((left) => rights.map((right) => left + right));
  }
  if (ts.isIdentifier(node) && consts.has(node.text) && !seen.has(node.text)) {
    return titleTexts(consts.get(node.text), consts, new Set([...seen, node.text]));
  }
  if (ts.isObjectLiteralExpression(node)) {
    const values = node.properties.filter(ts.isPropertyAssignment).flatMap((property) => titleTexts(property.initializer, consts, seen));
    return values.length ? values : [HOLE];
  }
  if ((ts.isElementAccessExpression(node) || ts.isPropertyAccessExpression(node)) && ts.isIdentifier(unwrap(node.expression))) {
    const target = unwrap(node.expression);
    if (consts.has(target.text) && ts.isObjectLiteralExpression(unwrap(consts.get(target.text)))) return titleTexts(target, consts, seen);
  }
  return [HOLE];
}

/** In a table test's title, printf-style placeholders (%s, %i...) and $names are filled per row: holes too. */
const tableHoles = (title) => title.replace(/%[sdifjoOc#%]|\$[A-Za-z_][\w.]*/g, HOLE);

/** Every test in a file with its full title (`suite > test`) and line. */
export function testTitles(file, text = readFileSync(file, 'utf8')) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const consts = constants(source);
  const titles = [];
  const visit = (node, suites) => {
    const call = ts.isCallExpression(node) && node.arguments.length > 0 ? callKind(node.expression) : null;
    if (!call) return ts.forEachChild(node, (child) => void visit(child, suites));
    const texts = titleTexts(node.arguments[0], consts).map((text) => (call.table ? tableHoles(text) : text));
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    for (const title of texts) {
      if (call.kind === 'test') titles.push({ title, full: [...suites, title].join(' > '), file, line });
      else node.arguments.slice(1).forEach((argument) => visit(argument, [...suites, title]));
    }
    if (call.kind === 'test') node.arguments.slice(1).forEach((argument) => visit(argument, suites));
  };
  visit(source, []);
  return titles;
}

export function scenarios(specFile, text = readFileSync(specFile, 'utf8')) {
  return text.split('\n').flatMap((line, index) => {
    const match = line.match(/^#{2,6}\s*Scenario:\s*(.+?)\s*$/);
    return match ? [{ name: match[1], file: specFile, line: index + 1 }] : [];
  });
}

/** Case, spacing and markdown marks (`code`, *emphasis*, quotes) do not make a title differ from its Scenario. */
export const normalize = (text) => text.toLowerCase().replace(/[`*_"']/g, '').replace(/\s+/g, ' ').trim();

function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** The test whose own title is closest to the Scenario's name. */
export function nearestTitle(name, titles) {
  const wanted = normalize(name);
  let best = null;
  for (const test of titles) {
    const own = normalize(test.title.replace(/^\s*scenario:\s*/i, ''));
    const distance = editDistance(wanted, own);
    if (!best || distance < best.distance) best = { test, distance };
  }
  return best;
}

export function trace(rootDir) {
  const specFiles = filesUnder(path.join(rootDir, 'openspec', 'specs'), (file) => file.endsWith('spec.md'));
  // Only the app's test/ folder: a Scenario is the product's promise, so its test lives where the product is tested
  // (a workspace package keeps its own unit tests, not the Scenarios).
  const titles = filesUnder(path.join(rootDir, 'test'), (file) => TEST_FILE.test(file))
    .flatMap((file) => testTitles(file));
  const normalized = titles.map((test) => normalize(test.full));
  const all = specFiles.flatMap((file) => scenarios(file));
  const unnamed = all.filter((scenario) => !normalized.some((title) => title.includes(normalize(scenario.name))));
  return { total: all.length, titles, unnamed };
}

if (import.meta.url === new URL(process.argv[1], 'file:').href || process.argv[1] === new URL(import.meta.url).pathname) {
  const { total, titles, unnamed } = trace(root);
  const where = (file, line) => `${path.relative(root, file)}:${line}`;
  console.log(`openspec scenarios: ${total}, named in a test: ${total - unnamed.length} (${titles.length} test titles read)`);
  for (const scenario of unnamed) {
    console.log(`  not named in any test: ${where(scenario.file, scenario.line)} "${scenario.name}"`);
    const near = nearestTitle(scenario.name, titles);
    if (near) console.log(`    closest test title: ${where(near.test.file, near.test.line)} "${near.test.title.replaceAll(HOLE, '${…}')}"`);
  }
  if (strict && unnamed.length) process.exit(1);
}
