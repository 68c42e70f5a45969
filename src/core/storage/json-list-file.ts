import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { issueSaid } from '../../shared/issue-said';
import { say, saidList, type Saying } from '../../shared/said';
import { withFileLock } from './file-lock';
import { writeFileAtomic } from './settings-store';

/**
 * A list kept in one JSON file (`{"version": 1, "<field>": [...]}`) that several processes read and change: each
 * change reads, applies and writes back under the file's lock, replacing the file atomically (readers see the old
 * file or the new one, never half). A file that cannot be read is never overwritten: reading and changing throw the
 * owner's plain reason until the person fixes or deletes it.
 */
export interface JsonListFile<Item> {
  readonly file: string;
  /** The items as stored; [] when there is no file yet. */
  read(): Promise<Item[]>;
  /** Applies `apply` to the current items and writes what it returns, in turn with every other change. */
  change<T>(apply: (items: Item[]) => { items: Item[]; result: T }): Promise<T>;
}

export interface JsonListFileOptions<Item> {
  file: string;
  /** The list's key in the file, e.g. `notes`. */
  field: string;
  item: z.ZodType<Item>;
  /** A larger file is not read at all. */
  maxFileBytes: number;
  /** What a file of this kind is called in a reason: "a notes file", and its code. */
  kind: Saying;
  /** The owner's error for a file that cannot be used, from why (`is not valid JSON`, with its code). */
  damaged: (why: Saying) => Error;
  /** Bounds the list before it is written (the oldest go first, say). */
  cap?: (items: Item[]) => Item[];
}

export function jsonListFile<Item>(options: JsonListFileOptions<Item>): JsonListFile<Item> {
  const { file, field, maxFileBytes, kind, damaged } = options;
  const schema = z.object({ version: z.literal(1), [field]: z.array(options.item) });
  /** The file as last read, reused while its size and time are unchanged (another process may write it too). */
  let cached: { key: string; items: Item[] } | null = null;
  let tail: Promise<unknown> = Promise.resolve();
  const queue = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };

  async function read(): Promise<Item[]> {
    let info;
    try {
      info = await stat(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw damaged(say('storedFile.unreadable', { systemText: (error as Error).message }));
    }
    if (info.size > maxFileBytes) throw damaged(say('storedFile.tooLarge', { size: Math.round(maxFileBytes / 1024) }));
    const key = `${info.size}:${info.mtimeMs}`;
    if (cached?.key === key) return cached.items;
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw damaged(error instanceof SyntaxError ? say('storedFile.notJson') : say('storedFile.unreadable', { systemText: (error as Error).message }));
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      // zod gives at least one issue: the first says where and why (zod's English in the text, its code beside it).
      const issue = parsed.error.issues[0]!;
      const where = issue.path.join('.');
      const problemSaid = saidList([issueSaid(issue)]);
      throw damaged({
        text: `is not ${kind.text} (${where || 'the whole file'}: ${issue.message})`,
        said: where ? { code: 'storedFile.wrongShape', values: { kindSaid: saidList([kind.said]), path: where, problemSaid } } : { code: 'storedFile.wrongShapeWhole', values: { kindSaid: saidList([kind.said]), problemSaid } },
      });
    }
    const items = parsed.data[field] as Item[];
    cached = { key, items };
    return items;
  }

  return {
    file,
    read,
    change: (apply) =>
      queue(() =>
        withFileLock(file, async () => {
          // Another process may have written within the same size and time: a change reads the file itself.
          cached = null;
          const { items, result } = apply([...(await read())]);
          const kept = options.cap ? options.cap(items) : items;
          await writeFileAtomic(file, `${JSON.stringify({ version: 1, [field]: kept }, null, 1)}\n`, 0o600);
          cached = null;
          return result;
        }),
      ),
  };
}
