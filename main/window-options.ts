import type { BrowserWindowConstructorOptions } from 'electron';

/** The renderer's Content-Security-Policy: only our own files; no inline scripts, no remote code. */
export const rendererCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Hardened window: isolated, sandboxed, no Node in the page, no webview, no remote content. */
export const windowOptions = (preloadPath: string): BrowserWindowConstructorOptions => ({
  width: 1280,
  height: 840,
  minWidth: 900,
  minHeight: 600,
  show: false,
  title: 'Compliance Workbench',
  backgroundColor: '#f6f7f9',
  webPreferences: {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    spellcheck: false,
  },
});

/** The renderer is loaded from this app-private scheme; anything else is foreign. */
export const appScheme = 'svc-app';
export const appOrigin = `${appScheme}://renderer`;

export const isTrustedRendererUrl = (url: string): boolean => {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}` === appOrigin;
  } catch {
    return false;
  }
};

/** Links out of the app open in the system browser, and only http(s) ones. */
export const isSafeExternalUrl = (url: string): boolean => {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
};
