import type { AdbClient } from '../core/device/adb-client';

/** One line of `amc doctor`: what was checked, how it went and, when not ok, what to do. */
export interface DoctorRow {
  check: string;
  /** `warn`: worth knowing, but a task can still run. */
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

/** What every extra check may use: the adb server the other rows looked at (null when it could not be reached). */
export interface DoctorContext {
  adb: AdbClient | null;
  readySerials: readonly string[];
  signal: AbortSignal;
}

export type DoctorCheck = (context: DoctorContext) => Promise<DoctorRow[]>;

/**
 * Checks other parts add to `amc doctor` (e.g. the phone helpers: scrcpy-server, yadb): each returns its rows, run
 * after the built-in ones; a row with status `fail` makes the exit code 1.
 */
export const EXTRA_DOCTOR_CHECKS: DoctorCheck[] = [];
