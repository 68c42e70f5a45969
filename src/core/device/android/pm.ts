import { shellLine } from './shell-line';

/** `pm`, the package manager: the installed packages, asked one way wherever they are needed. */
export const pm = {
  listPackages: () => shellLine(['pm', 'list', 'packages']),
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
