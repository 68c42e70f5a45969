import type { UiContext } from '../app';
import type { UiWindow } from '../view';
import { dialogWindow } from '../widgets';
import { Overlay } from './overlay';

/** A system pop-up (the low-battery warning): modal, holds the key focus, survives HOME like a real one. */
export class PopupLayer extends Overlay {
  override readonly holdsFocus = true;
  private shownTitle: string | undefined;

  constructor(private readonly message: string) {
    super();
  }

  get shown(): boolean {
    return this.shownTitle !== undefined;
  }

  show(title: string): void {
    this.shownTitle = title;
  }

  dismiss(): void {
    this.shownTitle = undefined;
  }

  override title(): string | null {
    return this.shownTitle ?? null;
  }

  override home(): boolean {
    return false;
  }

  override screenOff(): void {
    // It is still there when the screen comes back on.
  }

  windows(ctx: UiContext): UiWindow[] {
    const root = dialogWindow(ctx, {
      title: this.shownTitle ?? '',
      message: this.message,
      buttons: [{ text: 'OK', onClick: () => this.dismiss() }],
    });
    return [{ pkg: 'android', root, modal: true }];
  }
}
