// `npm run bench`: runs every case in bench/cases (or those named on the command line) and prints one table.
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

const rows: BenchRow[] = [];
for (const bench of await loadCases(process.argv.slice(2))) {
  process.stderr.write(`running ${bench.name}...\n`);
  try {
    rows.push(...(await bench.run()));
  } catch (error) {
    // A broken case is reported, not fatal: the other cases still run.
    process.stderr.write(`  ${bench.name} could not run: ${error instanceof Error ? error.message : String(error)}\n`);
    rows.push({ case: bench.name, metric: 'error', value: Number.NaN, unit: '' });
  }
}
printTable(rows);
