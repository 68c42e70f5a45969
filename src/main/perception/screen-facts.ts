/** Parsers for the `dumpsys` / `wm` output the Observer uses for screen facts. */

export interface ForegroundWindow {
  package: string;
  activity?: string;
}

/** `mCurrentFocus=Window{1f2e3d u0 com.android.settings/com.android.settings.Settings}` (or mFocusedApp). */
export function parseForegroundWindow(output: string): ForegroundWindow | undefined {
  const focus =
    /mCurrentFocus=Window\{[^}]*?\s(?:u\d+\s+)?([\w.]+)\/([\w.$]+)/.exec(output) ??
    /mFocusedApp=\S*\{[^}]*?\s(?:u\d+\s+)?([\w.]+)\/([\w.$]+)/.exec(output);
  if (!focus) return undefined;
  const [, packageName, activity] = focus as unknown as [string, string, string];
  return { package: packageName, activity: shortActivity(packageName, activity) };
}

/** `com.android.settings.Settings` inside `com.android.settings` -> `.Settings`. */
function shortActivity(packageName: string, activity: string): string {
  return activity.startsWith(`${packageName}.`) ? activity.slice(packageName.length) : activity;
}

/** `mInputShown=true` in `dumpsys input_method`; undefined when the output does not say. */
export function parseInputShown(output: string): boolean | undefined {
  const match = /mInputShown=(true|false)/.exec(output);
  return match ? match[1] === 'true' : undefined;
}
