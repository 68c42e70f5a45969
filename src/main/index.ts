// The Electron shell: window, security and the IPC <-> router wiring. Everything else runs in plain Node.
import { app, BrowserWindow, ipcMain, safeStorage, session, shell, type WebFrameMain } from 'electron';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ipcChannel, methodNames } from '../shared/contract';
import { createApp, type AppServices } from './app/create-app';
import { createSafeStorageCodec } from './shell/safe-storage-secrets';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererIndex = path.join(here, '../renderer/index.html');
const rendererUrl = pathToFileURL(rendererIndex).href;

function isTrustedSender(frame: WebFrameMain | null): boolean {
  return frame !== null && frame.url.split('#')[0] === rendererUrl;
}

function createWindow(services: AppServices): BrowserWindow {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 1024,
    minHeight: 700,
    title: 'Agentic Mobile Control',
    show: false,
    webPreferences: {
      preload: path.join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });

  const unsubscribeEvents = services.events.subscribe((name, payload) => {
    if (!window.isDestroyed()) window.webContents.send(ipcChannel.event(name), payload);
  });
  const unsubscribeFrames = services.events.subscribeFrames((meta, bytes) => {
    if (!window.isDestroyed() && window.isVisible() && !window.isMinimized()) {
      window.webContents.send(ipcChannel.frame, meta, bytes);
    }
  });
  window.on('closed', () => {
    unsubscribeEvents();
    unsubscribeFrames();
  });
  void window.loadURL(rendererUrl);
  return window;
}

async function start(): Promise<void> {
  await app.whenReady();
  // The page's CSP is a meta tag in the built index.html (file:// responses carry no headers to add it to).
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));

  // safeStorage is usable only once the app is ready; keys are then encrypted with the OS keychain.
  const services = await createApp({ secretCodec: createSafeStorageCodec(safeStorage) });
  for (const method of methodNames) {
    ipcMain.handle(ipcChannel.method(method), (event, input: unknown) => {
      if (!isTrustedSender(event.senderFrame)) {
        return { ok: false, error: { code: 'failed', message: 'Request refused: it did not come from the app window.' } };
      }
      return services.router.call(method, input, { transport: 'electron' });
    });
  }
  createWindow(services);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow(services);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // Quit only after the services closed: a running task is stopped and its end recorded in history, the demo
  // phone and the adb tracking are shut down.
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    void services.close().finally(() => {
      closed = true;
      app.quit();
    });
  });
}

void start();
