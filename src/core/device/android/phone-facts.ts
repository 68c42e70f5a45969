import { parseWmSize, wm } from './wm';

/** A phone's natural (unrotated) screen size in pixels. */
export interface NaturalSize {
  width: number;
  height: number;
}

/**
 * What stays true of a connected phone, learned once per serial and shared by everyone who asks (perception, the
 * tools): its natural screen size (`wm size` does not change while a phone is connected). Only a fact read is kept:
 * a phone that did not say is asked again next time. One per adb connection: a new connection starts afresh.
 */
export class PhoneFacts {
  private readonly sizes = new Map<string, NaturalSize>();

  /** The natural size, from `wm size` through `read` (which runs one read-only command); undefined when it did not say. */
  async naturalSize(serial: string, read: (command: string) => Promise<string>): Promise<NaturalSize | undefined> {
    const known = this.sizes.get(serial);
    if (known) return known;
    const size = parseWmSize(await read(wm.size()));
    if (size) this.sizes.set(serial, size);
    return size;
  }
}
