import { useEffect } from 'react';
import { attentionNotice, type PendingRequest } from '../../../../shared/contract';
import { useBridge } from '../../bridge-context';

/**
 * In a browser tab that is not in front, a new request shows as a desktop notification (the browser asks for
 * permission once). The Electron window's notice comes from the shell, so the page itself needs no permission.
 */
export function useAttentionNotice(request: PendingRequest | undefined): void {
  const { transport } = useBridge();
  const id = request?.id;
  useEffect(() => {
    if (!request || transport !== 'web' || typeof Notification === 'undefined' || document.hasFocus()) return;
    const show = () => {
      const { title, body } = attentionNotice(request);
      const notice = new Notification(title, { body, tag: request.id });
      notice.onclick = () => window.focus();
    };
    if (Notification.permission === 'granted') show();
    else if (Notification.permission === 'default') void Notification.requestPermission().then((answer) => answer === 'granted' && show());
    // Only a new request notifies; its later re-renders do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, transport]);
}
