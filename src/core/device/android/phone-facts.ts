import { getprop, parseProperties, SDK_PROPERTY } from './getprop';
import { parseWmDensity, parseWmSize, wm } from './wm';

/** A phone's natural (unrotated) screen size in pixels. */
export interface NaturalSize {
  width: number;
  height: number;
}

/** What the phone's build says of itself (`getprop`): any of it may be missing. */
export interface BuildFacts {
  model?: string;
  /** `ro.build.version.release`, e.g. "14". */
  release?: string;
  /** `ro.build.version.sdk`, e.g. 34. */
  sdk?: number;
}

interface Known {
  size?: NaturalSize;
  density?: number;
  build?: BuildFacts;
}

/** Runs one read-only command on the phone and answers its output. */
export type ReadOnPhone = (command: string) => Promise<string>;

const byConnection = new WeakMap<object, PhoneFacts>();

/**
 * What stays true of a connected phone, learned once per serial and shared by everyone who asks on one adb connection
 * (perception, the tools, the device list, the mirror): its natural screen size, density and build. Only a fact read
 * is kept: a phone that did not say is asked again next time. A fact must not outlive its truth: a phone's facts are
 * dropped when it goes away, changes state or comes back (`forget`, called by the device tracker and on an unreachable
 * phone), and a size read afresh (each observation reads `wm size`, which `wm size WxH` changes) replaces the one kept.
 * The installed packages are not kept: apps come and go while a phone stays connected.
 */
export class PhoneFacts {
  private readonly known = new Map<string, Known>();
  /** Counts each phone's drops: a read begun before a drop does not land after it. */
  private readonly drops = new Map<string, number>();

  /** The facts of one adb connection (an AdbClient): a new connection starts afresh. */
  static of(connection: object): PhoneFacts {
    let facts = byConnection.get(connection);
    if (!facts) byConnection.set(connection, (facts = new PhoneFacts()));
    return facts;
  }

  /** The natural size, from `wm size` (an override wins); undefined when the phone did not say. */
  naturalSize(serial: string, read: ReadOnPhone): Promise<NaturalSize | undefined> {
    return this.fact(serial, 'size', async () => parseWmSize(await read(wm.size())));
  }

  /** The density in dpi, from `wm density` (an override wins); undefined when the phone did not say. */
  density(serial: string, read: ReadOnPhone): Promise<number | undefined> {
    return this.fact(serial, 'density', async () => parseWmDensity(await read(wm.density())));
  }

  /** Model and Android version from `getprop`; kept once the phone named its version. */
  async build(serial: string, read: ReadOnPhone): Promise<BuildFacts> {
    return (await this.fact(serial, 'build', async () => buildFrom(parseProperties(await read(getprop.all()))))) ?? {};
  }

  /** A size just read by someone else (an observation's own `wm size`): it replaces the one kept, and a changed size drops the density `wm` may have changed with it. */
  learnSize(serial: string, size: NaturalSize): void {
    const known = this.known.get(serial) ?? {};
    if (known.size && (known.size.width !== size.width || known.size.height !== size.height)) delete known.density;
    this.known.set(serial, { ...known, size });
  }

  /** Drops everything known of a phone: it went away, changed state or came back. */
  forget(serial: string): void {
    this.known.delete(serial);
    this.drops.set(serial, (this.drops.get(serial) ?? 0) + 1);
  }

  private async fact<K extends keyof Known>(serial: string, key: K, readFact: () => Promise<Known[K] | undefined>): Promise<Known[K] | undefined> {
    const kept = this.known.get(serial)?.[key];
    if (kept !== undefined) return kept;
    const drops = this.drops.get(serial) ?? 0;
    const value = await readFact();
    if (value !== undefined && (this.drops.get(serial) ?? 0) === drops) this.known.set(serial, { ...this.known.get(serial), [key]: value });
    return value;
  }
}

/** The build facts of `getprop`'s properties; undefined when they name no Android version (not worth keeping). */
function buildFrom(properties: ReadonlyMap<string, string>): BuildFacts | undefined {
  const model = properties.get('ro.product.model');
  const release = properties.get('ro.build.version.release');
  const sdk = Number(properties.get(SDK_PROPERTY));
  if (!release && !(sdk > 0)) return undefined;
  return { ...(model && { model }), ...(release && { release }), ...(sdk > 0 && { sdk }) };
}
