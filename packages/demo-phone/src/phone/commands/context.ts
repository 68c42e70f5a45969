import type { PhoneFaultKind } from '../faults';
import type { VirtualFileSystem } from '../file-system';
import type { LatencyKind } from '../latency';
import type { HelperProcessTable } from '../helper-processes';
import type { PhoneLog } from '../log';
import type { PhoneData } from '../model';
import type { PhoneUi } from '../ui/phone-ui';

/** What shell commands may use of the phone. */
export interface PhoneServices {
  readonly ui: PhoneUi;
  readonly fs: VirtualFileSystem;
  /** The main log buffer `logcat` reads. */
  readonly log: PhoneLog;
  data(): PhoneData;
  /** Waits as long as the latency profile says for this kind of command (rejects when aborted). */
  delay(kind: LatencyKind, signal: AbortSignal): Promise<void>;
  /** Consumes a pending one-shot fault of this kind; true when there was one. */
  takeFault(kind: PhoneFaultKind): boolean;
  screenshotPng(): Promise<Buffer>;
  screenshotRgba(): Promise<Buffer>;
  hierarchyXml(): string;
  /** Whether something on screen redraws every frame (the loading bar): the screen never goes idle. */
  animating(): boolean;
  /** Programs started with `app_process`, for `ps` and `kill`. */
  readonly helpers: HelperProcessTable;
  /** Values of settings that are not modelled by the phone data (`settings put` of other keys). */
  readonly extraSettings: Map<string, string>;
}
