import type { Bridge } from './bridge';
import { createElectronBridge, type PreloadGlobal } from './electron-bridge';
import { createWebBridge } from './web-bridge';

export { BridgeError, type Bridge } from './bridge';

declare global {
  interface Window {
    amc?: PreloadGlobal;
  }
}

/** Picks the transport this page was opened through: the Electron preload, or the web host's WebSocket. */
export function connectBridge(): Bridge {
  if (window.amc) return createElectronBridge(window.amc);
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const wsUrl = new URL('/ws', window.location.href);
  wsUrl.protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  wsUrl.hash = '';
  wsUrl.searchParams.set('token', token);
  return createWebBridge(wsUrl.href);
}
