// How many deliberate one-line bugs the suite catches (scripts/mutation-check.mjs): each bug is applied to its
// own temporary copy and only the tests meant to catch it run. Slow (about 5 minutes on two busy cores):
// AMC_BENCH_SKIP_SLOW=1 skips it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchCase, BenchRow } from '../types';

const CASE = 'mutation-check';
const script = fileURLToPath(new URL('../../scripts/mutation-check.mjs', import.meta.url));

interface Report {
  caught: number;
  total: number;
  results: Array<{ name: string; status: string; detail: string }>;
}

function runScript(): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as Report);
      } catch {
        reject(new Error(`mutation-check printed no report: ${out.slice(0, 200)}`));
      }
    });
  });
}

const mutationCheck: BenchCase = {
  name: CASE,
  async run(): Promise<BenchRow[]> {
    if (process.env.AMC_BENCH_SKIP_SLOW) {
      process.stderr.write(`  ${CASE} skipped (AMC_BENCH_SKIP_SLOW is set)\n`);
      return [];
    }
    const started = performance.now();
    const report = await runScript();
    for (const r of report.results) if (r.status !== 'caught') process.stderr.write(`  ${r.status}: ${r.name} (${r.detail})\n`);
    return [
      { case: CASE, metric: 'deliberate bugs caught by the suite', value: report.caught, unit: `of ${report.total}`, goal: 'all' },
      { case: CASE, metric: 'bugs that could not be applied or checked', value: report.results.length - report.total, unit: '', goal: '0' },
      { case: CASE, metric: 'time', value: (performance.now() - started) / 1000, unit: 's' },
    ];
  },
};

export default mutationCheck;
