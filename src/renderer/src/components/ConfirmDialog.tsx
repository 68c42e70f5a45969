import { useEffect, useRef } from 'react';
import { useWords } from '../i18n/use-words';
import { useConfirmStore } from '../store/confirm-store';

/**
 * The window's yes-or-no before something that cannot be undone: a modal dialog whose keyboard path is Enter to go
 * ahead (the focus starts on that button), Escape or Tab then Enter to cancel; the focus returns where it was.
 */
export function ConfirmDialog() {
  const request = useConfirmStore((s) => s.request);
  const dialog = useRef<HTMLDialogElement>(null);
  const { t } = useWords();
  useEffect(() => {
    const element = dialog.current;
    if (!request || !element) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal?.();
    element.querySelector<HTMLButtonElement>('[data-confirm]')?.focus();
    return () => {
      if (element.open) element.close();
      previous?.focus();
    };
  }, [request]);
  if (!request) return null;
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog panel"
      aria-labelledby="confirm-message"
      data-testid="confirm-dialog"
      onCancel={(event) => {
        event.preventDefault();
        request.answer(false);
      }}
    >
      <p id="confirm-message">{request.message}</p>
      <div className="confirm-actions">
        <button type="button" className="button danger" data-confirm onClick={() => request.answer(true)}>
          {request.confirmLabel}
        </button>
        <button type="button" className="button secondary" onClick={() => request.answer(false)}>
          {t('app:common.cancel')}
        </button>
      </div>
    </dialog>
  );
}
