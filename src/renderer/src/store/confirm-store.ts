import { create } from 'zustand';

/** A question the window asks before something that cannot be undone, answered in the window (never confirm()). */
export interface ConfirmRequest {
  message: string;
  /** The words of the button that goes ahead ("Delete", "Stop"). */
  confirmLabel: string;
  answer(yes: boolean): void;
}

export const useConfirmStore = create<{ request: ConfirmRequest | null }>()(() => ({ request: null }));

/** Asks in the window's own dialog; resolves true only when the person goes ahead (a question asked meanwhile is declined). */
export function askConfirm(message: string, confirmLabel: string): Promise<boolean> {
  useConfirmStore.getState().request?.answer(false);
  return new Promise((resolve) => {
    const answer = (yes: boolean) => {
      useConfirmStore.setState({ request: null });
      resolve(yes);
    };
    useConfirmStore.setState({ request: { message, confirmLabel, answer } });
  });
}
