import { twoDigits } from '../../apps/common';
import { SCREEN_HEIGHT } from '../../properties';
import type { UiContext } from '../app';
import { KEY } from '../keys';
import { SYSTEM_UI_PACKAGE } from '../system-ui';
import { node, rect, type UiWindow, type ViewNode } from '../view';
import { FONT, W } from '../widgets';
import { Overlay, type Point } from './overlay';

const UNLOCK_SWIPE = 300;
const id = (name: string): string => `${SYSTEM_UI_PACKAGE}:id/${name}`;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const KEYPAD = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'delete', '0', 'enter'];

/**
 * The keyguard: engaged by the power key, shown once the screen is back on. A swipe up opens the phone, or
 * with a PIN set (seed `lockPin`) the PIN pad ("bouncer"), where the right PIN and Enter open it.
 */
export class LockScreenLayer extends Overlay {
  override readonly opaque = true;
  override readonly holdsFocus = true;
  private locked = false;
  private bouncer = false;
  private entry = '';
  private message = 'Enter your PIN';

  constructor(private readonly pin: () => string | undefined) {
    super();
  }

  get shown(): boolean {
    return this.locked;
  }

  /** The PIN pad is up (after a swipe up on a phone with a PIN). */
  get askingForPin(): boolean {
    return this.locked && this.bouncer;
  }

  lock(): void {
    this.locked = true;
    this.closeBouncer();
  }

  dismiss(): void {
    this.locked = false;
    this.closeBouncer();
  }

  override back(): boolean {
    this.closeBouncer();
    return true;
  }

  override home(): boolean {
    this.closeBouncer();
    return true;
  }

  override screenOff(): void {
    this.closeBouncer();
  }

  override swipe(from: Point, to: Point): boolean {
    if (!this.locked || this.bouncer || from.y - to.y < UNLOCK_SWIPE) return false;
    if (this.pin() === undefined) this.dismiss();
    else this.bouncer = true;
    return true;
  }

  override typeText(text: string): boolean {
    if (!this.bouncer) return false;
    this.entry += [...text].filter((char) => /[0-9]/.test(char)).join('');
    return true;
  }

  override key(code: number): boolean {
    if (!this.bouncer) return false;
    if (code === KEY.DEL) this.entry = this.entry.slice(0, -1);
    else if (code === KEY.ENTER) this.submit();
    else return false;
    return true;
  }

  windows(ctx: UiContext): UiWindow[] {
    const { theme, now } = ctx;
    const full = rect(0, 0, W, SCREEN_HEIGHT);
    const text = (top: number, bottom: number, value: string, resourceId: string, fontSize: number): ViewNode =>
      node('android.widget.TextView', rect(0, top, W, bottom), { text: value, resourceId: id(resourceId), style: { fontSize, textColor: '#FFFFFF', align: 'center' } });
    const children: ViewNode[] = [
      text(260, 520, `${twoDigits(now.getHours())}:${twoDigits(now.getMinutes())}`, 'lockscreen_clock_view', 220),
      text(520, 600, `${WEEKDAYS[now.getDay()]}, ${MONTHS[now.getMonth()]} ${now.getDate()}`, 'date_view', FONT.body),
    ];
    if (this.bouncer) children.push(...this.pinPad());
    else children.push(text(2040, 2140, 'Swipe up to open', 'keyguard_indication_text', FONT.summary));
    const root = node('android.widget.FrameLayout', full, {
      resourceId: id('notification_panel'),
      style: { gradient: [theme.wallpaperTop, '#000000'] },
    }, children);
    return [{ pkg: SYSTEM_UI_PACKAGE, root, modal: true }];
  }

  private pinPad(): ViewNode[] {
    const nodes: ViewNode[] = [
      node('android.widget.TextView', rect(0, 700, W, 790), {
        text: this.message,
        resourceId: id('bouncer_message_area'),
        style: { fontSize: FONT.body, textColor: '#FFFFFF', align: 'center' },
      }),
      node('android.widget.EditText', rect(240, 820, W - 240, 960), {
        text: '•'.repeat(this.entry.length),
        resourceId: id('pinEntry'),
        password: true,
        focused: true,
        style: { fontSize: FONT.title, textColor: '#FFFFFF', align: 'center', border: '#FFFFFF', radius: 24 },
      }),
    ];
    for (const [index, label] of KEYPAD.entries()) {
      const left = 150 + (index % 3) * 260;
      const top = 1060 + Math.floor(index / 3) * 230;
      const bounds = rect(left, top, left + 220, top + 200);
      const isDigit = /^[0-9]$/.test(label);
      nodes.push(node(isDigit ? 'android.widget.TextView' : 'android.widget.ImageButton', bounds, {
        resourceId: id(isDigit ? `key${label}` : label === 'delete' ? 'delete_button' : 'key_enter'),
        contentDesc: isDigit ? label : label === 'delete' ? 'Delete' : 'Enter',
        clickable: true,
        onClick: () => {
          if (isDigit) this.entry += label;
          else if (label === 'delete') this.entry = this.entry.slice(0, -1);
          else this.submit();
        },
        style: { background: '#3A3A3A', radius: 100, textColor: '#FFFFFF', fontSize: FONT.title, align: 'center', label: isDigit ? label : undefined, icon: isDigit ? undefined : label === 'delete' ? 'key-delete' : 'key-enter', iconColor: '#FFFFFF' },
      }));
    }
    return nodes;
  }

  private submit(): void {
    if (this.entry === this.pin()) {
      this.dismiss();
      return;
    }
    this.entry = '';
    this.message = 'Wrong PIN';
  }

  private closeBouncer(): void {
    this.bouncer = false;
    this.entry = '';
    this.message = 'Enter your PIN';
  }
}
