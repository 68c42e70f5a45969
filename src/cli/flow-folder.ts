import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { UsageError } from './command';
import { terminalWords } from './terminal-words';
import { FLOW_FILE_MAX_BYTES } from '../shared/flow';

/**
 * `amc flow run FOLDER`: a Maestro workspace, as Maestro picks its flows. Without a `config.yaml`, every flow file at
 * the folder's top level; with one, the files its `flows:` globs name (relative to the folder), narrowed by its
 * `includeTags`/`excludeTags` and the command's `--include-tags`/`--exclude-tags` (a flow runs when it has one of the
 * included tags, if any are given, and none of the excluded), in the order `executionOrder.flowsOrder` lists (the rest
 * after them, by name). A key of config.yaml amc does not read is refused, never ignored.
 */

export interface FolderSelection {
  /** The flow files to run, in order. */
  files: string[];
  /** Whether the run goes on to the next flow after one failed (executionOrder.continueOnFailure, default true). */
  continueOnFailure: boolean;
}

const CONFIG_FILES = ['config.yaml', 'config.yml'];
const CONFIG_KEYS = ['flows', 'includeTags', 'excludeTags', 'executionOrder'];
const ORDER_KEYS = ['flowsOrder', 'continueOnFailure'];
/** A workspace of thousands of files is no flow folder: the walk stops there. */
const MAX_FILES = 5000;
const FLOW_FILE = /\.ya?ml$/i;

/** A glob (`flows/**`, `login/*.yaml`) as a regular expression on a path relative to the folder, with `/` between parts. */
function globPattern(glob: string): RegExp {
  let pattern = '';
  for (let at = 0; at < glob.length; at++) {
    const char = glob[at]!;
    if (char === '*' && glob[at + 1] === '*') {
      pattern += glob[at + 2] === '/' ? '(?:.*/)?' : '.*';
      at += glob[at + 2] === '/' ? 2 : 1;
    } else if (char === '*') pattern += '[^/]*';
    else if (char === '?') pattern += '[^/]';
    else pattern += char.replace(/[\\^$+.()|[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

/** A comma-separated tag list (`--include-tags smoke,login`), or a config list. */
function tagList(value: unknown, where: string): string[] {
  if (value === undefined || value === null) return [];
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
  if (!items || items.some((item) => typeof item !== 'string')) throw new UsageError(terminalWords().t('cli:usageError.folderTagList', { where }));
  return (items as string[]).map((item) => item.trim()).filter(Boolean);
}

/** The `tags` a Maestro file's header lists (none for our own flow files, or a file that cannot be read as YAML). */
export function flowTags(text: string): string[] {
  const header = parseDocument(text.split(/^---\s*$/m)[0] ?? '').toJS() as unknown;
  const tags = header && typeof header === 'object' && !Array.isArray(header) ? (header as Record<string, unknown>).tags : undefined;
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
}

/** Every file under `folder`, as paths relative to it with `/` between parts. */
async function filesUnder(folder: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(folder, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await filesUnder(folder, relative)));
    else if (entry.isFile()) found.push(relative);
    if (found.length > MAX_FILES) throw new UsageError(terminalWords().t('cli:usageError.folderTooManyFiles', { folder, max: MAX_FILES }));
  }
  return found;
}

async function readConfig(folder: string): Promise<Record<string, unknown>> {
  for (const name of CONFIG_FILES) {
    const file = path.join(folder, name);
    const size = await stat(file).then((info) => info.size, () => null);
    if (size === null) continue;
    if (size > FLOW_FILE_MAX_BYTES) throw new UsageError(terminalWords().t('cli:usageError.folderConfigTooLarge', { file }));
    const document = parseDocument(await readFile(file, 'utf8'));
    if (document.errors.length) throw new UsageError(terminalWords().t('cli:usageError.folderConfigNotYaml', { file, parserText: document.errors[0]!.message.split('\n')[0] }));
    const config = (document.toJS() as unknown) ?? {};
    if (typeof config !== 'object' || Array.isArray(config)) throw new UsageError(terminalWords().t('cli:usageError.folderConfigNotMap', { file }));
    const unknown = Object.keys(config).filter((key) => !CONFIG_KEYS.includes(key));
    if (unknown.length) throw new UsageError(terminalWords().t('cli:usageError.folderConfigUnknownKeys', { file, keys: unknown.map((key) => `\`${key}\``).join(', '), known: CONFIG_KEYS.join(', ') }));
    return config as Record<string, unknown>;
  }
  return {};
}

/** The flows of a workspace folder to run, in order, by its config.yaml and the command's tags. */
export async function selectFolderFlows(folder: string, given: { includeTags?: string | undefined; excludeTags?: string | undefined }): Promise<FolderSelection> {
  const config = await readConfig(folder);
  const globs = config.flows === undefined ? ['*'] : typeof config.flows === 'string' ? [config.flows] : Array.isArray(config.flows) ? config.flows : null;
  if (!globs || globs.some((glob) => typeof glob !== 'string')) throw new UsageError(terminalWords().t('cli:usageError.folderFlowsGlobs'));
  const patterns = (globs as string[]).map(globPattern);
  const include = [...tagList(config.includeTags, 'config.yaml: includeTags'), ...tagList(given.includeTags, '--include-tags')];
  const exclude = [...tagList(config.excludeTags, 'config.yaml: excludeTags'), ...tagList(given.excludeTags, '--exclude-tags')];
  const order = config.executionOrder ?? {};
  if (typeof order !== 'object' || Array.isArray(order)) throw new UsageError(terminalWords().t('cli:usageError.folderOrderMap'));
  const orderKeys = Object.keys(order).filter((key) => !ORDER_KEYS.includes(key));
  if (orderKeys.length) throw new UsageError(terminalWords().t('cli:usageError.folderOrderUnknownKeys', { keys: `executionOrder.${orderKeys.join(', executionOrder.')}` }));
  const { flowsOrder, continueOnFailure } = order as Record<string, unknown>;
  if (continueOnFailure !== undefined && typeof continueOnFailure !== 'boolean') throw new UsageError(terminalWords().t('cli:usageError.folderContinueOnFailure'));

  const candidates = (await filesUnder(folder))
    .filter((relative) => FLOW_FILE.test(relative) && !CONFIG_FILES.includes(relative) && patterns.some((pattern) => pattern.test(relative)))
    .sort();
  const selected: string[] = [];
  for (const relative of candidates) {
    const text = await readFile(path.join(folder, relative), 'utf8');
    const tags = flowTags(text);
    if (include.length && !tags.some((tag) => include.includes(tag))) continue;
    if (tags.some((tag) => exclude.includes(tag))) continue;
    selected.push(relative);
  }
  const named = tagList(flowsOrder, 'config.yaml: executionOrder.flowsOrder');
  const nameOf = (relative: string) => path.basename(relative).replace(FLOW_FILE, '');
  const first = named.map((name) => {
    const match = selected.find((relative) => nameOf(relative) === name || relative === name);
    if (!match) throw new UsageError(terminalWords().t('cli:usageError.folderOrderNotSelected', { name }));
    return match;
  });
  const files = [...first, ...selected.filter((relative) => !first.includes(relative))].map((relative) => path.join(folder, relative));
  if (!files.length) throw new UsageError(terminalWords().t(include.length || exclude.length ? 'cli:usageError.folderNoFlowWithTags' : 'cli:usageError.folderNoFlow', { folder }));
  return { files, continueOnFailure: continueOnFailure !== false };
}
