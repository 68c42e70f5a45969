// The Electron shell: window, security and the IPC <-> router wiring. Everything else runs in plain Node.
import { app, BrowserWindow, ipcMain, Notification, safeStorage, session, shell, type WebContents } from 'electron';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { attentionNotice, ipcChannel, methodNames, type EventPayload } from '../shared/contract';
import { createApp, type AppServices } from '../app/create-app';
import { createSafeStorageCodec } from './shell/safe-storage-secrets';
import {
  isTrustedSender,
  isUserGesture,
  mainWindowOptions,
  mayAttachWebview,
  mayNavigate,
  permissionGranted,
  secretStorageChoice,
  windowOpenDecision,
} from './shell/shell-policy';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererIndex = path.join(here, '../renderer/index.html');
const rendererUrl = pathToFileURL(rendererIndex).href;

/** Every web contents the app ever creates (the window, a devtools page, anything else) gets the same guard. */
function guardWebContents(contents: WebContents): void {
  let lastInputAt: number | null = null;
  contents.on('input-event', (_event, input) => {
    if (isUserGesture(input.type)) lastInputAt = Date.now();
  });
  const refuseNavigation = (event: { preventDefault(): void }, url: string) => {
    if (!mayNavigate(url)) event.preventDefault();
  };
  contents.on('will-navigate', (event) => refuseNavigation(event, event.url));
  contents.on('will-redirect', (event) => refuseNavigation(event, event.url));
  contents.on('will-attach-webview', (event) => {
    if (!mayAttachWebview()) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url, { lastInputAt, now: Date.now() });
    // Electronegativity exception (OPEN_EXTERNAL_JS_CHECK): only https documentation hosts, only after a click or key
    // press (windowOpenDecision in shell-policy.ts, unit tested in shell-policy.test.ts).
    if (decision.openExternally) void shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK
    return { action: decision.action };
  });
}

function createWindow(services: AppServices): BrowserWindow {
  // Electronegativity exceptions: the scanner cannot see options built by a function. mainWindowOptions sets
  // contextIsolation, sandbox and disableBlinkFeatures 'Auxclick'; shell-policy.test.ts asserts each one.
  const options = mainWindowOptions(path.join(here, '../preload/index.cjs'), app.getLocale());
  const window = new BrowserWindow(options); // eng-disable CONTEXT_ISOLATION_JS_CHECK SANDBOX_JS_CHECK AUXCLICK_JS_CHECK
  window.once('ready-to-show', () => window.show());

  const unsubscribeEvents = services.events.subscribe((name, payload) => {
    if (!window.isDestroyed()) window.webContents.send(ipcChannel.event(name), payload);
  });
  // A task waiting on the person while they look elsewhere: a desktop notice that brings the window back.
  const unsubscribeNotices = services.events.subscribe((name, payload) => {
    if (name !== 'task.event' || window.isDestroyed() || window.isFocused() || !Notification.isSupported()) return;
    const event = payload as EventPayload<'task.event'>;
    if (event.type !== 'person.asked') return;
    const notice = new Notification(attentionNotice(event.request));
    notice.on('click', () => {
      if (!window.isDestroyed()) window.show();
      if (!window.isDestroyed()) window.focus();
    });
    notice.show();
  });
  const unsubscribeFrames = services.events.subscribeFrames((meta, bytes) => {
    if (!window.isDestroyed() && window.isVisible() && !window.isMinimized()) {
      window.webContents.send(ipcChannel.frame, meta, bytes);
    }
  });
  window.on('closed', () => {
    unsubscribeEvents();
    unsubscribeNotices();
    unsubscribeFrames();
  });
  void window.loadURL(rendererUrl);
  return window;
}

async function start(): Promise<void> {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
  await app.whenReady();
  // The page's CSP is a meta tag in the built index.html (file:// responses carry no headers to add it to).
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(permissionGranted(permission)));
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => permissionGranted(permission));

  // safeStorage is usable only once the app is ready; it is trusted only when a real OS keychain backs it.
  const choice = secretStorageChoice({
    platform: process.platform,
    encryptionAvailable: safeStorage.isEncryptionAvailable(),
    linuxBackend: process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : null,
  });
  const services = await createApp({ secretCodec: createSafeStorageCodec(safeStorage, choice) });
  for (const method of methodNames) {
    ipcMain.handle(ipcChannel.method(method), (event, input: unknown) => {
      if (!isTrustedSender(event.senderFrame?.url, rendererUrl)) {
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
