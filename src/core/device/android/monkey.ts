import { shellLine } from './shell-line';

const LAUNCHER_CATEGORY = 'android.intent.category.LAUNCHER';

/** `monkey`, used for one event only: opening an app by its launcher activity without naming the activity. */
export const monkey = {
  launch: (pkg: string) => shellLine(['monkey', '-p', pkg, '-c', LAUNCHER_CATEGORY, 1]),
};

/** Why `monkey -p PKG` opened nothing (its last line), or undefined when it injected its event. */
export function monkeyLaunchFailure(output: string): string | undefined {
  if (!/no activities found|monkey aborted|error/i.test(output)) return undefined;
  return output.trim().split('\n').at(-1)?.trim() ?? '';
}
