import { shellLine } from './shell-line';

/** `cmd`, a system service's own command line; here the package service's intent resolution. */
export const cmd = {
  /** Which activity answers an intent: `--brief` prints its priority line and then `package/activity`. */
  resolveActivity: (intent: { action: string; data: string }) => shellLine(['cmd', 'package', 'resolve-activity', '--brief', '-a', intent.action, '-d', intent.data]),
};

/** `cmd package resolve-activity --brief` output -> the package that answers (its last line is `package/activity`), or null. */
export function parseResolvedPackage(output: string): string | null {
  const component = output.trim().split('\n').at(-1)?.trim() ?? '';
  const match = /^([A-Za-z][\w]*(?:\.[\w]+)+)\//.exec(component);
  return match ? match[1]! : null;
}
