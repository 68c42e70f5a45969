import { KEY } from '../ui/keys';
import type { PhoneUi } from '../ui/phone-ui';
import { ackClipboardDeviceMessage, clipboardDeviceMessage, type ControlMessage } from './control-messages';

const ACTION_DOWN = 0;
const ACTION_UP = 1;
/** How far one notch of a scroll wheel moves the content, in screen pixels. */
const SCROLL_STEP_PX = 150;

type LogLevel = 'INFO' | 'WARN';

interface PointerDown {
  x: number;
  y: number;
  at: number;
}

/** What the controller needs around it: the phone's UI, the sizes to map touches, a log and the reply channel. */
export interface ControllerContext {
  ui: PhoneUi;
  /** The display's size as rotated now. */
  screenWidth: number;
  screenHeight: number;
  /** A point on the rotated display back on the portrait layout the UI takes. */
  toNatural(x: number, y: number): { x: number; y: number };
  videoWidth: number;
  videoHeight: number;
  log(level: LogLevel, message: string): void;
  reply(message: Buffer): Promise<void>;
  resetVideo(): void;
  /** scrcpy's ROTATE_DEVICE: portrait <-> landscape with auto-rotate off. */
  rotateDevice(): void;
}

/**
 * Applies scrcpy control messages to the phone as Android's input would: a touch becomes a tap, long press or
 * swipe when its pointer goes up, keys act when pressed, text types what a key map can type (ASCII), a pasted
 * clipboard types anything.
 */
export class ScrcpyController {
  private readonly pointers = new Map<bigint, PointerDown>();
  private clipboard = '';

  constructor(private readonly context: ControllerContext) {}

  async apply(message: ControlMessage): Promise<void> {
    const { ui } = this.context;
    switch (message.type) {
      case 'keycode':
        if (message.action === ACTION_DOWN && message.repeat === 0) ui.key(message.keycode);
        return;
      case 'text':
        this.injectText(message.text);
        return;
      case 'touch':
        this.touch(message);
        return;
      case 'scroll': {
        const point = this.toScreen(message);
        if (point) ui.swipe(point.x, point.y, point.x - message.hScroll * SCROLL_STEP_PX, point.y + message.vScroll * SCROLL_STEP_PX, 100);
        return;
      }
      case 'back-or-screen-on':
        if (message.action === ACTION_DOWN) ui.key(ui.isScreenOn ? KEY.BACK : KEY.WAKEUP);
        return;
      case 'expand-notification-panel':
      case 'expand-settings-panel':
        ui.expandShade();
        return;
      case 'collapse-panels':
        ui.collapseShade();
        return;
      case 'get-clipboard':
        await this.context.reply(clipboardDeviceMessage(this.clipboard));
        return;
      case 'set-clipboard':
        this.clipboard = message.text;
        if (message.paste) ui.typeText(message.text);
        if (message.sequence !== 0n) await this.context.reply(ackClipboardDeviceMessage(message.sequence));
        return;
      case 'start-app':
        if (!ui.startApp(message.name.replace(/^\+/, ''))) this.context.log('WARN', `No app found for package "${message.name}"`);
        return;
      case 'reset-video':
        this.context.resetVideo();
        return;
      case 'rotate-device':
        this.context.rotateDevice();
        return;
      case 'set-display-power':
      case 'uhid':
      case 'open-hard-keyboard-settings':
        // The demo phone keeps its display on and has no HID keyboard: nothing to do.
        return;
    }
  }

  private injectText(text: string): void {
    // Like scrcpy, characters without a key in the virtual key map cannot be injected as key events.
    let typable = '';
    for (const char of text) {
      if (/^[\x20-\x7e\n]$/.test(char)) typable += char;
      else this.context.log('WARN', `Could not inject char u+${char.codePointAt(0)!.toString(16).padStart(4, '0')}`);
    }
    if (typable !== '') this.context.ui.typeText(typable);
  }

  private touch(message: Extract<ControlMessage, { type: 'touch' }>): void {
    const point = this.toScreen(message);
    if (!point) return;
    if (message.action === ACTION_DOWN) {
      this.pointers.set(message.pointerId, { ...point, at: performance.now() });
      return;
    }
    if (message.action !== ACTION_UP) return;
    const down = this.pointers.get(message.pointerId);
    this.pointers.delete(message.pointerId);
    if (down) this.context.ui.swipe(down.x, down.y, point.x, point.y, performance.now() - down.at);
  }

  /** Video coordinates to screen pixels; undefined (event ignored, as scrcpy does) when sent for another video size. */
  private toScreen(event: { x: number; y: number; screenWidth: number; screenHeight: number }): { x: number; y: number } | undefined {
    const { videoWidth, videoHeight, screenWidth, screenHeight } = this.context;
    if (event.screenWidth !== videoWidth || event.screenHeight !== videoHeight) {
      this.context.log('WARN', `Ignore event generated for size ${event.screenWidth}x${event.screenHeight} (current size is ${videoWidth}x${videoHeight})`);
      return undefined;
    }
    return this.context.toNatural(Math.round((event.x * screenWidth) / videoWidth), Math.round((event.y * screenHeight) / videoHeight));
  }
}
