import path from 'node:path';
import { planCacheKey, PlanCacheEntrySchema, type PlanCacheEntry } from '../../shared/plan-cache';
import { saidList, say, type Said, type Saying } from '../../shared/said';
import { jsonListFile } from './json-list-file';

/**
 * The plan cache's entries, in one JSON file beside the task history (`<home>/storage/plan-cache.json`): one per goal
 * (by `planCacheKey`), written only by what decides a run may teach it, forgotten by the person.
 */
export interface PlanCacheStore {
  readonly file: string;
  /** Every entry, newest first. A damaged file throws PlanCacheFileError. */
  list(): Promise<PlanCacheEntry[]>;
  /** The entry of this goal (same key), if any. */
  find(goal: string): Promise<PlanCacheEntry | null>;
  /** Keeps `entry`, replacing the entry of the same goal. */
  learn(entry: PlanCacheEntry): Promise<void>;
  /** Removes the entry of the goal `which`, or the entries of the run whose id is `which`; returns what it removed. */
  forget(which: string): Promise<PlanCacheEntry[]>;
}

/** The plan cache file exists but cannot be used; it is left as it is. */
export class PlanCacheFileError extends Error {
  override name = 'PlanCacheFileError';
  readonly said: Said;
  constructor({ text, said }: Saying) {
    super(text);
    this.said = said;
  }
}

export const PLAN_CACHE_FILE = path.join('storage', 'plan-cache.json');
/** Past this many goals the oldest are forgotten first. */
export const PLAN_CACHE_MAX_ENTRIES = 1000;

const newestFirst = (entries: readonly PlanCacheEntry[]) => [...entries].sort((a, b) => b.learnedAt - a.learnedAt);

export function createPlanCacheStore(home: string): PlanCacheStore {
  const file = path.join(home, PLAN_CACHE_FILE);
  const stored = jsonListFile<PlanCacheEntry>({
    file,
    field: 'entries',
    item: PlanCacheEntrySchema,
    maxFileBytes: 4 * 1024 * 1024,
    kind: say('storedFile.planCacheKind'),
    damaged: (why) =>
      new PlanCacheFileError({
        text: `The plan cache file ${file} ${why.text}; fix or delete it. It was not changed, and no run is reused until then.`,
        said: { code: 'storedFile.planCacheDamaged', values: { file, whySaid: saidList([why.said]) } },
      }),
    cap: (entries) => newestFirst(entries).slice(0, PLAN_CACHE_MAX_ENTRIES),
  });
  return {
    file,
    list: async () => newestFirst(await stored.read()),
    find: async (goal) => (await stored.read()).find((entry) => planCacheKey(entry.goal) === planCacheKey(goal)) ?? null,
    learn: (entry) =>
      stored.change((entries) => ({ items: [...entries.filter((kept) => planCacheKey(kept.goal) !== planCacheKey(entry.goal)), entry], result: undefined })),
    forget: (which) =>
      stored.change((entries) => {
        const gone = (entry: PlanCacheEntry) => entry.taskId === which || planCacheKey(entry.goal) === planCacheKey(which);
        return { items: entries.filter((entry) => !gone(entry)), result: entries.filter(gone) };
      }),
  };
}
