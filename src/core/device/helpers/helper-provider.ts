import { HELPERS, type HelperFacts, type HelperName } from './catalog';
import { provisionHelper, type HelperResolution } from './provision';


/** What the Settings say about helpers (the "Phone helpers" section). */
export type HelperSettings = Record<HelperFacts['pathSetting'], string> & { download: boolean };

export interface HelperProviderOptions {
  settings: () => Promise<HelperSettings>;
  dataDir: string;
  /** The folder of the copies shipped with the app (resources/phone-helpers); null: none. */
  shippedDir: string | null;
  /** Release addresses to use instead of the official ones (tests point them at loopback servers). */
  downloadUrls?: Partial<Record<HelperName, string>>;
  /** How long a refusal stands before provisioning is tried again. */
  retryAfterMs?: number;
}

const RETRY_AFTER_MS = 5 * 60_000;


/**
 * The helpers for the whole process: each is provisioned once (a download at most once) and a refusal is
 * remembered for a while, so an offline machine does not retry on every mirror start or typed word. A change of
 * the Settings path is picked up at once.
 */
export class HelperProvider {
  private readonly known = new Map<HelperName, { key: string; at: number; result: Promise<HelperResolution> }>();

  constructor(private readonly options: HelperProviderOptions) {}

  async get(name: HelperName): Promise<HelperResolution> {
    const settings = await this.options.settings();
    const configuredPath = settings[HELPERS[name].pathSetting];
    const key = JSON.stringify([configuredPath, settings.download]);
    const known = this.known.get(name);
    const fresh = known && known.key === key;
    if (fresh) {
      const result = await known.result;
      if (result.available || Date.now() - known.at < (this.options.retryAfterMs ?? RETRY_AFTER_MS)) return result;
    }
    const result = provisionHelper(HELPERS[name], {
      configuredPath,
      dataDir: this.options.dataDir,
      shippedDir: this.options.shippedDir,
      allowDownload: settings.download,
      downloadUrl: this.options.downloadUrls?.[name],
    });
    this.known.set(name, { key, at: Date.now(), result });
    return result;
  }
}
