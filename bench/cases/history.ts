// History load: one task file of 1k / 8k / 80k turns read and folded in the history worker, and how long the main
// thread's event loop was held up meanwhile (a 5 ms ticker measures its longest gap, which includes taking the
// record from the worker). Three reads of each, each timed three times (the median, and the longest stall):
// - opening it as `history.get` does (its latest page);
// - a page from its middle, as the timeline asks for earlier turns (`history.turns`);
// - the whole record, as a download or a replay needs it.
// Before each opening and each whole read the file is touched, so it is folded again as on a first read. The limits
// are lifted here to time the fold itself: in the app a file of more than 5,000 turns is listed as damaged.
import { mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadTaskFile } from '../../src/core/storage/task-loader';
import { HISTORY_PAGE_TURNS } from '../../src/shared/contract';
import { writeLongTaskFile } from '../../test/core/storage/task-fixtures';
import { median, type BenchCase, type BenchRow } from '../types';

const SIZES = [1_000, 8_000, 80_000];
/** Each read is timed this many times: one 80,000-turn fold varies by a few hundred ms on a 2-core machine. */
const ROUNDS = 3;
const UNLIMITED = { maxBytes: Number.POSITIVE_INFINITY, maxTurns: Number.POSITIVE_INFINITY };

const writeTask = (file: string, turns: number) => writeLongTaskFile(file, 'bench', turns, { finished: true });

/** The longest gap between ticks of a 5 ms timer while `work` runs: how long the event loop was held. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; stallMs: number }> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    longest = Math.max(longest, performance.now() - last - 5);
    return { result, ms, stallMs: Math.max(0, longest) };
  } finally {
    clearInterval(ticker);
  }
}

const historyBench: BenchCase = {
  name: 'history',
  async run(): Promise<BenchRow[]> {
    const dir = await mkdtemp(path.join(tmpdir(), 'amc-bench-history-'));
    const rows: BenchRow[] = [];
    const name = 'history load (worker)';
    try {
      // The worker's first start (tsx from source) and its first reads of each kind are not part of a load.
      await writeTask(path.join(dir, 'warm.jsonl'), 300);
      await loadTaskFile(path.join(dir, 'warm.jsonl'), 'bench', UNLIMITED);
      await loadTaskFile(path.join(dir, 'warm.jsonl'), 'bench', UNLIMITED, { from: null, count: HISTORY_PAGE_TURNS });
      const perTurn: number[] = [];
      for (const turns of SIZES) {
        const file = path.join(dir, `${turns}.jsonl`);
        await writeTask(file, turns);
        const { size } = await stat(file);
        const label = `${turns.toLocaleString('en-US')} turns (${(size / 1024 / 1024).toFixed(1)} MB)`;
        let touches = 0;
        /** Median time and longest stall of ROUNDS reads; `fresh`: the file is touched first, so it is folded again as on a first read. */
        const read = async (what: string, wanted: { from: number | null; count: number } | undefined, steps: number, options: { fresh: boolean; goalMs?: string }) => {
          const times: number[] = [];
          let stall = 0;
          for (let round = 0; round < ROUNDS; round += 1) {
            if (options.fresh) {
              touches += 1;
              const at = new Date(Date.now() + touches * 1000);
              await utimes(file, at, at);
            }
            const { result, ms, stallMs } = await longestStall(() => loadTaskFile(file, 'bench', UNLIMITED, wanted));
            if (result.kind !== 'record' || result.record.steps.length !== steps) throw new Error(`${what} of the ${turns}-turn file did not come back whole`);
            times.push(ms);
            stall = Math.max(stall, stallMs);
          }
          const ms = median(times);
          rows.push({ case: name, metric: `${label}: ${what} (median of ${ROUNDS})`, value: ms, unit: 'ms', ...(options.goalMs && { goal: options.goalMs }) });
          rows.push({ case: name, metric: `${label}: ${what}, longest main-thread stall of ${ROUNDS}`, value: stall, unit: 'ms', goal: '< 50 ms' });
          return ms;
        };
        const opened = await read('open (latest page)', { from: null, count: HISTORY_PAGE_TURNS }, HISTORY_PAGE_TURNS, { fresh: true, ...(turns === 80_000 && { goalMs: '< 2000 ms' }) });
        perTurn.push(opened / turns);
        await read('a page from the middle', { from: turns / 2, count: HISTORY_PAGE_TURNS }, HISTORY_PAGE_TURNS, { fresh: false });
        await read('whole record (a download, a replay)', undefined, turns, { fresh: true });
      }
      // Quadratic work would make this about 80; linear work, about 1 (less: a fixed cost spread over more turns).
      rows.push({ case: name, metric: 'open: time per turn at 80k / at 1k', value: perTurn[2]! / perTurn[0]!, unit: 'x', goal: '<= 1.2 (linear or better)' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return rows;
  },
};

export default historyBench;
