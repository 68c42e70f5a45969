// The message catalogs stay whole: the same keys in every language (with the plural forms each language has), the
// same placeholders, no key unused, no key used that is missing, the glossary's words in Chinese, and no word shown
// by the window that bypasses the catalogs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CATALOGS } from '../../src/shared/i18n/catalogs';
import { LANGUAGES } from '../../src/shared/i18n/languages';

const SRC = path.resolve('src');
const AREAS = Object.keys(CATALOGS.en);
const KEY_SHAPE = new RegExp(`^(?:${AREAS.join('|')}):`);
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Every message of a language as `area:path.to.key` → text. */
function flatten(tree: object, prefix: string, into = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const at = `${prefix}${key}`;
    if (typeof value === 'string') into.set(at, value);
    else flatten(value as object, `${at}.`, into);
  }
  return into;
}
const messagesOf = (language: keyof typeof CATALOGS) =>
  new Map(Object.entries(CATALOGS[language]).flatMap(([area, tree]) => [...flatten(tree, `${area}:`)]));
const baseKey = (key: string) => key.replace(PLURAL_SUFFIX, '');
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1]).sort();

const messages = Object.fromEntries(LANGUAGES.map((language) => [language, messagesOf(language)])) as Record<(typeof LANGUAGES)[number], Map<string, string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The keys the code names: whole keys in quotes, and the start of keys built from a template (`app:x.${kind}`). */
function keysInCode(): { whole: Set<string>; prefixes: Set<string> } {
  const whole = new Set<string>();
  const prefixes = new Set<string>();
  const areas = AREAS.join('|');
  for (const file of sourceFiles(SRC)) {
    if (file.includes(`${path.sep}i18n${path.sep}catalogs${path.sep}`)) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(new RegExp(`['"\`]((?:${areas}):[\\w.-]+)['"\`]`, 'g'))) whole.add(match[1]!);
    for (const match of text.matchAll(new RegExp(`\`((?:${areas}):[\\w.-]*)\\$\\{`, 'g'))) prefixes.add(match[1]!);
  }
  return { whole, prefixes };
}

/** The glossary table of docs/glossary.md: each English term, its Chinese word, and the Chinese words never to use. */
function glossary(): Array<{ english: string; chinese: string; never: string[] }> {
  const rows = readFileSync(path.resolve('docs/glossary.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| English') && !line.startsWith('| ---'));
  return rows.map((line) => {
    const [english = '', chinese = '', never = ''] = line.split('|').slice(1).map((cell) => cell.trim());
    return { english, chinese, never: never.split(/[,，]\s*/).filter(Boolean) };
  });
}

/** Attributes whose text a person reads or hears. */
const SHOWN_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label', 'aria-description', 'aria-roledescription']);
/** Letters that are symbols in every language: the "v" before a version number. */
const SYMBOLS = new Set(['v']);
const hasWords = (text: string) => /\p{L}/u.test(text) && !KEY_SHAPE.test(text.trim()) && !SYMBOLS.has(text.trim());

/** Text the renderer shows that is written in its code rather than taken from the catalogs: `file:line "text"`. */
function literalsShown(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(path.join(SRC, 'renderer')).filter((name) => name.endsWith('.tsx'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const report = (node: ts.Node, text: string) =>
      found.push(`${path.relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${JSON.stringify(text.trim())}`);
    /** The literals an expression can evaluate to (`cond ? 'a' : 'b'`, `x ?? 'a'`); conditions and calls are not shown. */
    const literalsIn = (node: ts.Node): void => {
      if (ts.isParenthesizedExpression(node)) return literalsIn(node.expression);
      if (ts.isConditionalExpression(node)) {
        literalsIn(node.whenTrue);
        literalsIn(node.whenFalse);
      } else if (ts.isBinaryExpression(node) && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(node.operatorToken.kind)) {
        if (node.operatorToken.kind !== ts.SyntaxKind.AmpersandAmpersandToken) literalsIn(node.left);
        literalsIn(node.right);
      } else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && hasWords(node.text)) {
        report(node, node.text);
      } else if (ts.isTemplateExpression(node)) {
        const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
        if (hasWords(parts)) report(node, parts);
      }
    };
    const visit = (node: ts.Node): void => {
      if (ts.isJsxText(node) && hasWords(node.text)) report(node, node.text);
      if (ts.isJsxExpression(node) && node.expression && ts.isJsxElement(node.parent)) literalsIn(node.expression);
      if (ts.isJsxAttribute(node) && SHOWN_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
        if (ts.isStringLiteral(node.initializer) && hasWords(node.initializer.text)) report(node, node.initializer.text);
        if (ts.isJsxExpression(node.initializer) && node.initializer.expression) literalsIn(node.initializer.expression);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('interface language catalogs', () => {
  it('Scenario: Every message exists in both languages with the same placeholders', () => {
    const english = messages.en;
    for (const language of LANGUAGES) {
      const own = messages[language];
      // The same messages; each plural in exactly the forms the language's grammar has (English one/other, Chinese other).
      expect([...new Set([...own.keys()].map(baseKey))].sort(), language).toEqual([...new Set([...english.keys()].map(baseKey))].sort());
      const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const key of own.keys()) {
        const plural = PLURAL_SUFFIX.exec(key)?.[1];
        if (plural) expect(forms, `${language} ${key}`).toContain(plural);
      }
      for (const [key, text] of own) {
        expect(text.trim(), `${language} ${key} is empty`).not.toBe('');
        const englishText = english.get(key) ?? english.get(`${baseKey(key)}_other`)!;
        expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(englishText));
      }
    }
  });

  it('Scenario: A message key that no code uses, or that the code uses without a message, fails the check', () => {
    const { whole, prefixes } = keysInCode();
    const known = new Set([...messages.en.keys()].map(baseKey));
    const missing = [...whole].filter((key) => !known.has(key) && ![...known].some((message) => message.startsWith(`${key}.`)));
    expect(missing, 'keys named in the code with no message').toEqual([]);
    const unused = [...known].filter((key) => !whole.has(key) && ![...prefixes].some((prefix) => key.startsWith(prefix)));
    expect(unused, 'messages no code uses').toEqual([]);
  });

  it('Scenario: The Chinese messages use the glossary terms', () => {
    const terms = glossary();
    expect(terms.length).toBeGreaterThan(10);
    // A term with two senses ("model (a phone's)") has a row per sense: either word will do.
    const wordsOfTerm = new Map<string, string[]>();
    for (const { english, chinese } of terms) {
      const head = english.replace(/\s*\(.*$/, '');
      wordsOfTerm.set(head, [...(wordsOfTerm.get(head) ?? []), chinese]);
    }
    const problems: string[] = [];
    for (const [key, chinese] of messages['zh-CN']) {
      for (const term of terms) for (const word of term.never) if (chinese.includes(word)) problems.push(`${key}: "${word}" instead of "${term.chinese}"`);
      const english = (messages.en.get(key) ?? messages.en.get(`${baseKey(key)}_one`) ?? '').replace(/\{\{[^}]*\}\}/g, '');
      for (const [head, words] of wordsOfTerm) {
        if (new RegExp(`\\b${head}s?\\b`, 'i').test(english) && !words.some((word) => chinese.includes(word))) {
          problems.push(`${key}: "${head}" in English but none of ${words.join(', ')} in Chinese`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('Scenario: The window shows no words written outside the catalogs', () => {
    expect(literalsShown()).toEqual([]);
  });
});
