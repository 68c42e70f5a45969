import type { UiContext } from '../app';
import { ADB_KEYBOARD_PACKAGE, adbKeyboardWindow, latinKeyboardWindow, LATIN_IME_PACKAGE } from '../system-ui';
import type { UiWindow } from '../view';
import { ADB_KEYBOARD_TOP, KEYBOARD_TOP } from '../widgets';
import { Overlay } from './overlay';

export const LATIN_IME_ID = `${LATIN_IME_PACKAGE}/.LatinIME`;
export const ADB_IME_ID = `${ADB_KEYBOARD_PACKAGE}/.AdbIME`;

/** What the keyboard needs of the focused text field below it. */
export interface KeyboardTarget {
  hasFocusedField(): boolean;
  typeText(text: string): void;
  deleteBackward(): void;
  pressEnter(): void;
}

/** The soft keyboard of the current IME: shown while a text field has the focus and nothing closed it. */
export class KeyboardLayer extends Overlay {
  imeId = LATIN_IME_ID;
  private requested = false;
  private shifted = false;

  constructor(private readonly target: KeyboardTarget) {
    super();
  }

  get shown(): boolean {
    return this.requested && this.target.hasFocusedField();
  }

  /** Top edge of the keyboard while shown: apps that resize for it lay out above this line. */
  get top(): number {
    return this.imeId === ADB_IME_ID ? ADB_KEYBOARD_TOP : KEYBOARD_TOP;
  }

  request(): void {
    this.requested = true;
  }

  dismiss(): void {
    this.requested = false;
  }

  override reset(): void {
    this.requested = false;
    this.shifted = false;
    this.imeId = LATIN_IME_ID;
  }

  windows(ctx: UiContext): UiWindow[] {
    if (this.imeId === ADB_IME_ID) return [adbKeyboardWindow(ctx.theme)];
    return [
      latinKeyboardWindow(ctx.theme, this.shifted, {
        type: (text) => {
          this.target.typeText(text);
          this.shifted = false;
        },
        shift: () => (this.shifted = !this.shifted),
        delete: () => this.target.deleteBackward(),
        enter: () => this.target.pressEnter(),
      }),
    ];
  }
}
