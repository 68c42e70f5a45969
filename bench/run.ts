// `npm run bench`: runs every case in bench/cases (or those named on the command line) and prints one table. Each case
// runs in a process of its own, so that no case is billed for the heap, workers or child processes an earlier one
// left behind: a case measures the same code whether it runs alone or after the others.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import type { BenchCase, BenchRow } from './types';

const casesDir = fileURLToPath(new URL('./cases/', import.meta.url));

async function loadCases(filter: string[]): Promise<BenchCase[]> {
  const files = (await readdir(casesDir)).filter((f) => f.endsWith('.ts')).sort();
  const cases: BenchCase[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(casesDir, file)).href)) as { default: BenchCase };
    if (filter.length === 0 || filter.some((name) => mod.default.name.includes(name))) cases.push(mod.default);
  }
  return cases;
}

function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);
}

function printTable(rows: BenchRow[]): void {
  const table = rows.map((r) => [r.case, r.metric, `${formatValue(r.value)} ${r.unit}`, r.goal ?? '']);
  const header = ['case', 'metric', 'value', 'goal'];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));
}

/** Marks the line on which a case's own process hands its rows back. */
const ROWS_LINE = 'bench-rows ';
const ONE_CASE_FLAG = '--one-case';

/** Runs `name` in a child process (this script with `ONE_CASE_FLAG`); its stderr is passed through. */
function runInOwnProcess(name: string): Promise<BenchRow[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ONE_CASE_FLAG, name], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = output.split('\n');
      const rowsLine = lines.find((line) => line.startsWith(ROWS_LINE));
      const printed = lines.filter((line) => line !== rowsLine).join('\n').trim();
      if (printed) console.log(printed);
      if (rowsLine) resolve(JSON.parse(rowsLine.slice(ROWS_LINE.length)) as BenchRow[]);
      else reject(new Error(`its process ended (exit code ${code}) without giving its rows`));
    });
  });
}

const oneCase = process.argv.indexOf(ONE_CASE_FLAG);
if (oneCase >= 0) {
  const name = process.argv[oneCase + 1]!;
  const bench = (await loadCases([name])).find((candidate) => candidate.name === name)!;
  console.log(ROWS_LINE + JSON.stringify(await bench.run()));
  // A case may leave handles open (a worker, a server); the rows are what this process was for.
  process.exit(0);
}

const rows: BenchRow[] = [];
for (const bench of await loadCases(process.argv.slice(2))) {
  process.stderr.write(`running ${bench.name}...\n`);
  try {
    rows.push(...(await runInOwnProcess(bench.name)));
  } catch (error) {
    // A broken case is reported, not fatal: the other cases still run.
    process.stderr.write(`  ${bench.name} could not run: ${error instanceof Error ? error.message : String(error)}\n`);
    rows.push({ case: bench.name, metric: 'error', value: Number.NaN, unit: '' });
  }
}
printTable(rows);
