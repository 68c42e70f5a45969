/** One measured number. `goal` is informational: benchmarks report, they never fail on a timing. */
export interface BenchRow {
  case: string;
  metric: string;
  value: number;
  unit: string;
  goal?: string;
}

export interface BenchCase {
  name: string;
  run(): Promise<BenchRow[]>;
}

/** Median and percentile helpers shared by the cases. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export const median = (values: readonly number[]): number => percentile(values, 50);
