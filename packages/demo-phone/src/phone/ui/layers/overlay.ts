import type { UiContext } from '../app';
import type { UiWindow } from '../view';

export interface Point {
  x: number;
  y: number;
}

/**
 * One overlay in the phone's window stack, above the app layer (pop-up, keyboard, lock screen, shade).
 * The window manager asks the overlays top-down: BACK and HOME go to the topmost shown one, a swipe to the
 * first that wants it, typed text stops at the first that holds the focus. The defaults are the common
 * policy (BACK and HOME dismiss it, a reset or the screen going off hides it); a layer overrides what differs.
 */
export abstract class Overlay {
  /** Covers everything below, navigation bar included: lower layers are neither drawn nor dumped. */
  readonly opaque: boolean = false;
  /** Text and keys stop here instead of reaching the app below. */
  readonly holdsFocus: boolean = false;

  /** Drawn and receiving input now. */
  abstract get shown(): boolean;
  /** Its windows, bottom to top, drawn with the system's context (package `android`); only asked while shown. */
  abstract windows(ctx: UiContext): UiWindow[];
  abstract dismiss(): void;

  /** Reported as the phone's `dialog` while shown. */
  title(): string | null {
    return null;
  }

  /** BACK while shown; true when it is consumed here. */
  back(): boolean {
    this.dismiss();
    return true;
  }

  /** HOME while shown; true swallows it (the app layer then stays where it is). */
  home(): boolean {
    this.dismiss();
    return false;
  }

  /** A swipe, whether shown or not (pulling the shade down starts when it is hidden); true when handled. */
  swipe(_from: Point, _to: Point): boolean {
    return false;
  }

  /** Typed text while shown and holding the focus; true when it was taken. */
  typeText(_text: string): boolean {
    return false;
  }

  /** A key code while shown and holding the focus; true when it was handled. */
  key(_code: number): boolean {
    return false;
  }

  screenOff(): void {
    this.dismiss();
  }

  reset(): void {
    this.dismiss();
  }
}
