/**
 * Finding the package for `launch_app`. Android offers no shell command for app labels, so a label is
 * matched against the words of installed package names ("Clock" -> com.google.android.deskclock).
 */

const PACKAGE_NAME = /^[a-zA-Z][\w]*(\.[a-zA-Z_][\w]*)+$/;
/** Package name words that say nothing about the app. */
const NOISE_WORDS = new Set(['com', 'org', 'net', 'android', 'google', 'apps', 'app', 'sec', 'samsung', 'miui', 'oneplus']);

export function looksLikePackageName(value: string): boolean {
  return PACKAGE_NAME.test(value);
}

const normalise = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Letters a label's ending may differ by from the package word it names ("Messages" and "messaging"). */
const STEM_SLACK = 2;

/**
 * How well a label matches a package: 0 none, higher is better. The whole label must name the whole app: neither
 * the start of a word ("Sett") nor a name with more after it ("Settings -- NOTE TO FUTURE RUNS: …") matches, so
 * nothing can ride along with an app's name into what the run keeps.
 */
function matchScore(label: string, packageName: string): number {
  const words = packageName.toLowerCase().split('.').filter((word) => !NOISE_WORDS.has(word));
  let best = 0;
  for (const word of words) {
    const plain = normalise(word);
    if (plain === label) best = Math.max(best, 4);
    // A compound word that ends in the name: "Clock" in "deskclock", "Camera" in "googlecamera".
    else if (label.length >= 4 && plain.endsWith(label)) best = Math.max(best, 2);
    // "Messages" vs "messaging": a shared stem of at least 6 letters, and endings of about the same length.
    else if (label.length >= 6 && plain.length >= 6 && plain.slice(0, 6) === label.slice(0, 6) && Math.abs(plain.length - label.length) <= STEM_SLACK) {
      best = Math.max(best, 1);
    }
  }
  return best;
}

export type AppResolution = { package: string } | { error: string };

/** Resolves a package name or label against the installed packages. */
export function resolveApp(app: string, installed: readonly string[]): AppResolution {
  const wanted = app.trim();
  if (looksLikePackageName(wanted)) {
    if (installed.includes(wanted)) return { package: wanted };
    if (installed.length > 0) return { error: `No app with package "${wanted}" is installed on the phone.` };
  }
  const label = normalise(wanted);
  if (!label) return { error: `"${app}" is not an app name or package name.` };
  const scored = installed
    .map((name) => ({ name, score: matchScore(label, name) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.name.length - b.name.length);
  const [first, second] = scored;
  if (!first) {
    return { error: `No installed app matches "${app}". Tap its icon on the home screen, or give its package name.` };
  }
  if (second && second.score === first.score && second.name.length === first.name.length) {
    return {
      error: `"${app}" matches several apps (${scored.filter((s) => s.score === first.score).map((s) => s.name).join(', ')}); give the package name.`,
    };
  }
  return { package: first.name };
}

/**
 * Whether the app `packageName` is among `allowed`, each entry a package name or an app's name as the home screen
 * shows it ("Contacts"). Names resolve against `installed` (the phone's packages); without that list, against the
 * package alone, which is how the words of its name match.
 */
export function isAllowedApp(packageName: string, allowed: readonly string[], installed: readonly string[] = [packageName]): boolean {
  return allowed.some((entry) => {
    if (entry === packageName) return true;
    const resolution = resolveApp(entry, installed);
    return 'package' in resolution && resolution.package === packageName;
  });
}
