import PINS from '../../../../resources/phone-helpers/pins.json';

/**
 * The helper programs the app pushes to a phone and runs with `app_process`, pinned to one release each. The
 * version, SHA-256 and file name are declared once, in resources/phone-helpers/pins.json (which the build's fetch
 * script reads too). The sums are the official release files' (scrcpy's doc/build.md lists the server's; yadb's is
 * the v1.1.1 file as peers ship it): a file with another sum is another build, and is refused.
 */
export const HELPER_NAMES = ['scrcpy-server', 'yadb'] as const;
export type HelperName = (typeof HELPER_NAMES)[number];

export interface HelperFacts {
  name: HelperName;
  version: string;
  /** What the helper gives the app, for messages. */
  purpose: string;
  /** The official release file. */
  downloadUrl: string;
  sha256: string;
  /** Where the app keeps its own copy (in the data folder) and where it pushes it on the phone. */
  fileName: string;
  devicePath: string;
  /** The class `app_process` starts. */
  mainClass: string;
  /** The Settings entry ("Phone helpers" section) that names a file of this helper. */
  pathSetting: 'scrcpyServerPath' | 'yadbPath';
  /** Where a package manager puts the file on this OS (only the pinned version is accepted). */
  installedAt(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[];
}

/** A helper's pinned facts from pins.json. */
function pinned(name: HelperName): Pick<HelperFacts, 'version' | 'sha256' | 'fileName'> {
  const pin = PINS.helpers.find((helper) => helper.name === name);
  if (!pin) throw new Error(`resources/phone-helpers/pins.json does not pin ${name}`);
  return { version: pin.version, sha256: pin.sha256, fileName: pin.fileName };
}

export const SCRCPY_SERVER: HelperFacts = {
  name: 'scrcpy-server',
  ...pinned('scrcpy-server'),
  purpose: 'the video mirror',
  downloadUrl: 'https://github.com/Genymobile/scrcpy/releases/download/v3.3.3/scrcpy-server-v3.3.3',
  devicePath: '/data/local/tmp/scrcpy-server-amc.jar',
  mainClass: 'com.genymobile.scrcpy.Server',
  pathSetting: 'scrcpyServerPath',
  installedAt(platform, env) {
    if (platform === 'win32') {
      const roots = [env.LOCALAPPDATA, env.ProgramFiles, env.ChocolateyInstall && `${env.ChocolateyInstall}\\lib\\scrcpy\\tools`];
      const scoop = env.SCOOP ?? (env.USERPROFILE && `${env.USERPROFILE}\\scoop`);
      return [
        ...roots.filter((root): root is string => Boolean(root)).map((root) => `${root}\\scrcpy\\scrcpy-server`),
        ...(scoop ? [`${scoop}\\apps\\scrcpy\\current\\scrcpy-server`] : []),
      ];
    }
    const prefixes = platform === 'darwin' ? ['/opt/homebrew', '/usr/local', '/opt/local'] : ['/usr/local', '/usr', '/snap/scrcpy/current/usr'];
    return prefixes.map((prefix) => `${prefix}/share/scrcpy/scrcpy-server`);
  },
};

export const YADB: HelperFacts = {
  name: 'yadb',
  ...pinned('yadb'),
  purpose: 'typing any text without a keyboard app',
  // The file in the repository at the release's tag (yadb has no release assets): tag v1.1.1 (commit eb2ca6ad)
  // holds this 14,431-byte file, the one @midscene/android 1.7.3 ships; the pinned sum rejects any other build.
  downloadUrl: 'https://raw.githubusercontent.com/ysbing/YADB/v1.1.1/yadb',
  devicePath: '/data/local/tmp/yadb',
  mainClass: 'com.ysbing.yadb.Main',
  pathSetting: 'yadbPath',
  // No package manager ships yadb: a Settings path or the download.
  installedAt: () => [],
};

export const HELPERS: Record<HelperName, HelperFacts> = { 'scrcpy-server': SCRCPY_SERVER, yadb: YADB };
