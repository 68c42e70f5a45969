import { echo, falseCommand, getprop, sleep, trueCommand } from './commands/basic';
import { PhoneFaultSchema, type PhoneFault, type PhoneFaultKind } from './faults';
import { VirtualFileSystem } from './file-system';
import { waitForAbort, type LatencyProfileName } from './latency';
import { APP_PACKAGES, dataFromSeed, type PhoneData, type PhoneStateView } from './model';
import { DEVICE_IDENTITY } from './properties';
import { ShellInterpreter, type CommandHandler, type CommandOutput } from './shell/interpreter';

export type { PhoneStateView } from './model';

export interface VirtualPhoneOptions {
  profile?: LatencyProfileName;
  seed?: unknown;
}

/** The simulated Android phone: its shell, screen, apps and state. Transport-agnostic (the adb layer drives it). */
export class VirtualPhone {
  readonly fs = new VirtualFileSystem();
  readonly identity = DEVICE_IDENTITY;
  private profile: LatencyProfileName;
  private data: PhoneData;
  private pendingFaults: PhoneFaultKind[] = [];
  private readonly interpreter: ShellInterpreter;

  constructor(options: VirtualPhoneOptions = {}) {
    this.profile = options.profile ?? 'instant';
    this.data = dataFromSeed(options.seed).data;
    const commands = new Map<string, CommandHandler>([
      ['echo', echo],
      ['getprop', getprop],
      ['sleep', sleep],
      ['true', trueCommand],
      ['false', falseCommand],
    ]);
    this.interpreter = new ShellInterpreter(commands, this.fs);
  }

  /** Runs one shell command line. Rejects with the signal's reason when aborted. */
  async shell(command: string, options: { signal: AbortSignal }): Promise<CommandOutput> {
    options.signal.throwIfAborted();
    if (this.takeFault('hang')) return waitForAbort(options.signal);
    return this.interpreter.run(command, options.signal);
  }

  state(): PhoneStateView {
    const data = structuredClone(this.data);
    return {
      foreground: APP_PACKAGES.launcher,
      activity: `${APP_PACKAGES.launcher}/.uioverrides.QuickstepLauncher`,
      screenOn: true,
      keyboardShown: false,
      focusedField: null,
      dialog: null,
      settings: data.settings,
      contactsPermission: data.contactsPermission,
      contacts: data.contacts,
      alarms: data.alarms,
      notes: data.notes,
      messages: { sent: data.sent, conversations: data.conversations },
      ime: { current: 'com.android.inputmethod.latin/.LatinIME', adbKeyboardInstalled: data.adbKeyboardInstalled },
      profile: this.profile,
    };
  }

  reset(seed?: unknown): void {
    this.data = dataFromSeed(seed).data;
    this.pendingFaults = [];
    this.fs.clear();
  }

  setProfile(profile: LatencyProfileName): void {
    if (profile !== 'instant' && profile !== 'realistic') throw new Error(`Unknown latency profile: ${String(profile)}`);
    this.profile = profile;
  }

  injectFault(fault: PhoneFault): void {
    const parsed = PhoneFaultSchema.safeParse(fault);
    if (!parsed.success) throw new Error(`Unknown phone fault: ${JSON.stringify(fault)}`);
    this.pendingFaults.push(parsed.data.kind);
  }

  faults(): Array<{ kind: PhoneFaultKind }> {
    return this.pendingFaults.map((kind) => ({ kind }));
  }

  private takeFault(kind: PhoneFaultKind): boolean {
    const index = this.pendingFaults.indexOf(kind);
    if (index < 0) return false;
    this.pendingFaults.splice(index, 1);
    return true;
  }
}
