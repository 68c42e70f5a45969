// The Electron shell's security decisions as plain functions (no `electron` import), so each one is unit
// tested; src/main/index.ts only wires them to Electron's events.

/** Hosts whose pages a link in the app may open in the person's browser: documentation, nothing else. */
export const DOCUMENTATION_HOSTS: readonly string[] = [
  'developer.android.com',
  'docs.anthropic.com',
  'platform.openai.com',
  'github.com',
];

/** How long after a click or key press a request to open a link still counts as the person's own. */
export const USER_GESTURE_WINDOW_MS = 1000;

/** How the system's locale reaches the preload (a sandboxed preload cannot ask Electron for it). */
export const LOCALE_ARGUMENT = '--amc-locale=';

/**
 * The main window's options: the renderer is sandboxed, isolated from the preload, and has no Node. `locale` is
 * Electron's (app.getLocale()); the window's words follow it unless Settings chooses a language.
 */
export function mainWindowOptions(preloadPath: string, locale = '') {
  return {
    width: 1440,
    height: 900,
    minWidth: 1024,
    minHeight: 700,
    title: 'Agentic Mobile Control',
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // A middle click would otherwise open a link in a new window, bypassing the click handlers.
      disableBlinkFeatures: 'Auxclick',
      additionalArguments: [`${LOCALE_ARGUMENT}${locale}`] as string[],
    },
  } as const;
}

/** Only the app's own page (any fragment) may call main; a frame that navigated elsewhere, or none, may not. */
export function isTrustedSender(frameUrl: string | null | undefined, rendererUrl: string): boolean {
  return typeof frameUrl === 'string' && frameUrl.split('#')[0] === rendererUrl;
}

/**
 * Whether a URL may be handed to the OS browser: https, default port, no credentials, a documentation host,
 * and only right after the person clicked or pressed a key (a script alone cannot open anything).
 */
export function mayOpenExternally(url: string, gesture: { lastInputAt: number | null; now: number }): boolean {
  if (gesture.lastInputAt === null || gesture.now - gesture.lastInputAt > USER_GESTURE_WINDOW_MS) return false;
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return (
    parsed.protocol === 'https:' &&
    parsed.port === '' &&
    parsed.username === '' &&
    parsed.password === '' &&
    DOCUMENTATION_HOSTS.includes(parsed.hostname)
  );
}

/** What to do when any page asks for a new window: never open one; maybe pass an allowed link to the browser. */
export function windowOpenDecision(
  url: string,
  gesture: { lastInputAt: number | null; now: number },
): { action: 'deny'; openExternally: boolean } {
  return { action: 'deny', openExternally: mayOpenExternally(url, gesture) };
}

/** Navigation, redirects and webviews: the app is one local page; any attempt to leave it is refused. */
export const mayNavigate = (_url: string): boolean => false;
export const mayAttachWebview = (): boolean => false;

/** Camera, microphone, notifications, clipboard, USB...: the page needs none, so every check and request is denied. */
export const permissionGranted = (_permission: string): boolean => false;

/** Input events that show a person is acting on the page (for the gesture window above). */
export const isUserGesture = (inputType: string): boolean =>
  inputType === 'mouseDown' || inputType === 'mouseUp' || inputType === 'keyDown' || inputType === 'rawKeyDown';

/** safeStorage backends that encrypt with a real OS keychain (on Linux `basic_text` is a key built into Chromium). */
const KEYCHAIN_BACKENDS = new Set(['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6']);

export interface SecretStorageChoice {
  /** Encrypt keys with safeStorage; false keeps them in the 0600 file as the browser UI does. */
  useKeychain: boolean;
  /** The backend in plain words, for the Settings screen. */
  keychainName: string | null;
}

/**
 * Whether safeStorage really protects keys here. macOS (Keychain) and Windows (DPAPI) always do when
 * available; on Linux only a Secret Service or KWallet backend does, never `basic_text` or `unknown`.
 */
export function secretStorageChoice(probe: { platform: string; encryptionAvailable: boolean; linuxBackend: string | null }): SecretStorageChoice {
  if (!probe.encryptionAvailable) return { useKeychain: false, keychainName: null };
  if (probe.platform === 'darwin') return { useKeychain: true, keychainName: 'the macOS Keychain' };
  if (probe.platform === 'win32') return { useKeychain: true, keychainName: 'Windows DPAPI' };
  const backend = probe.linuxBackend ?? 'unknown';
  return KEYCHAIN_BACKENDS.has(backend) ? { useKeychain: true, keychainName: `the OS keychain (${backend})` } : { useKeychain: false, keychainName: null };
}
