import { shellLine } from './shell-line';

/** `pm`, the package manager: the installed packages (asked one way wherever they are needed) and clearing an app's data. */
export const pm = {
  listPackages: () => shellLine(['pm', 'list', 'packages']),
  clear: (pkg: string) => shellLine(['pm', 'clear', pkg]),
};

/** `pm list packages` output -> package names. */
export function parsePackageList(output: string): string[] {
  return output
    .split('\n')
    .map((line) => /^package:(\S+)/.exec(line.trim())?.[1])
    .filter((name): name is string => name !== undefined);
}

/** The packages installed on the phone, through whatever runs a read-only command there. */
export async function installedPackages(query: (command: string) => Promise<string>): Promise<string[]> {
  return parsePackageList(await query(pm.listPackages()));
}

/** `pm clear PKG` -> whether the app's data was cleared (`Success`). */
export function clearSucceeded(output: string): boolean {
  return /^Success/.test(output.trim());
}
