// The Electron shell's security decisions, tested without Electron (src/main/index.ts only wires them).
import { describe, expect, it } from 'vitest';
import {
  DOCUMENTATION_HOSTS,
  USER_GESTURE_WINDOW_MS,
  isTrustedSender,
  isUserGesture,
  mainWindowOptions,
  mayAttachWebview,
  mayNavigate,
  permissionGranted,
  secretStorageChoice,
  windowOpenDecision,
} from '../../../src/main/shell/shell-policy';

const rendererUrl = 'file:///opt/amc/out/renderer/index.html';
const justClicked = { lastInputAt: 10_000, now: 10_200 };

describe('shell policy', () => {
  it('Scenario: The window is sandboxed and isolated without Node', () => {
    const options = mainWindowOptions('/opt/amc/out/preload/index.cjs');
    expect(options.show).toBe(false);
    expect(options.webPreferences).toEqual({
      preload: '/opt/amc/out/preload/index.cjs',
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
      disableBlinkFeatures: 'Auxclick',
      // Electron's locale for the window's language (none given here); the preload reads it, nothing else.
      additionalArguments: ['--amc-locale='],
    });
  });

  it('Scenario: Only the app page may call main', () => {
    expect(isTrustedSender(rendererUrl, rendererUrl)).toBe(true);
    expect(isTrustedSender(`${rendererUrl}#/history`, rendererUrl)).toBe(true);
    expect(isTrustedSender('file:///tmp/evil.html', rendererUrl)).toBe(false);
    expect(isTrustedSender(`${rendererUrl}.evil.html`, rendererUrl)).toBe(false);
    expect(isTrustedSender('https://example.com/', rendererUrl)).toBe(false);
    expect(isTrustedSender(null, rendererUrl)).toBe(false);
    expect(isTrustedSender(undefined, rendererUrl)).toBe(false);
  });

  it('Scenario: Navigation, redirects, webviews and new windows are refused everywhere', () => {
    for (const url of ['https://developer.android.com/', 'file:///etc/passwd', rendererUrl, 'javascript:alert(1)']) {
      expect(mayNavigate(url)).toBe(false);
      expect(windowOpenDecision(url, justClicked).action).toBe('deny');
    }
    expect(mayAttachWebview()).toBe(false);
  });

  it('Scenario: Only documentation links open in the browser, and only from a click', () => {
    expect(windowOpenDecision('https://developer.android.com/tools/adb', justClicked)).toEqual({ action: 'deny', openExternally: true });
    expect(DOCUMENTATION_HOSTS).toContain('developer.android.com');
    // No click just before: a script alone cannot open anything.
    expect(windowOpenDecision('https://developer.android.com/tools/adb', { lastInputAt: null, now: 10_000 }).openExternally).toBe(false);
    expect(windowOpenDecision('https://developer.android.com/', { lastInputAt: 0, now: USER_GESTURE_WINDOW_MS + 1 }).openExternally).toBe(false);
    for (const url of [
      'http://developer.android.com/',
      'https://evil.example/',
      'https://developer.android.com.evil.example/',
      'https://user:pw@developer.android.com/',
      'https://developer.android.com:8443/',
      'file:///etc/passwd',
      'smb://share/x',
      'not a url',
    ]) {
      expect(windowOpenDecision(url, justClicked).openExternally).toBe(false);
    }
    expect(['mouseDown', 'mouseUp', 'keyDown', 'rawKeyDown'].every(isUserGesture)).toBe(true);
    expect(['mouseMove', 'mouseWheel', 'char'].some(isUserGesture)).toBe(false);
  });

  it('Scenario: Every permission check and request is denied', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'usb', 'serial', 'fullscreen']) {
      expect(permissionGranted(permission)).toBe(false);
    }
  });

  it('Scenario: safeStorage is trusted only with a real OS keychain', () => {
    expect(secretStorageChoice({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'basic_text' })).toEqual({ useKeychain: false, keychainName: null });
    expect(secretStorageChoice({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'unknown' }).useKeychain).toBe(false);
    expect(secretStorageChoice({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'kwallet6' })).toEqual({
      useKeychain: true,
      keychainName: 'the OS keychain (kwallet6)',
    });
    expect(secretStorageChoice({ platform: 'darwin', encryptionAvailable: true, linuxBackend: null }).useKeychain).toBe(true);
    expect(secretStorageChoice({ platform: 'win32', encryptionAvailable: true, linuxBackend: null }).useKeychain).toBe(true);
    expect(secretStorageChoice({ platform: 'win32', encryptionAvailable: false, linuxBackend: null }).useKeychain).toBe(false);
  });
});
