import { useEffect } from 'react';
import { attentionNotice } from '../../../../shared/contract';
import type { PendingRequest } from '../../../../shared/task';
import { useBridge } from '../../bridge-context';

/**
 * In a browser tab that is not in front, a new request shows as a desktop notification (the browser asks for
 * permission once). The Electron window's notice comes from the shell, so the page itself needs no permission.
 */
export function useAttentionNotice(pending: PendingRequest | null): void {
  const { transport } = useBridge();
  const requestId = pending?.requestId;
  useEffect(() => {
    if (!pending || transport !== 'web' || typeof Notification === 'undefined' || document.hasFocus()) return;
    const show = () => {
      const { title, body } = attentionNotice(pending.request);
      const notice = new Notification(title, { body, tag: pending.requestId });
      notice.onclick = () => window.focus();
    };
    if (Notification.permission === 'granted') show();
    else if (Notification.permission === 'default') void Notification.requestPermission().then((answer) => answer === 'granted' && show());
    // Only a new request notifies; re-renders of the same one do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestId, transport]);
}
