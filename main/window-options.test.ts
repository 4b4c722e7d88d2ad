import { describe, expect, it } from 'vitest';
import { isSafeExternalUrl, isTrustedRendererUrl, rendererCsp, windowOptions } from './window-options.ts';

describe('Electron window hardening', () => {
  it('isolates and sandboxes the renderer with no Node access', () => {
    const prefs = windowOptions('/p/preload.cjs').webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      preload: '/p/preload.cjs',
    });
  });

  it('allows scripts only from the app itself', () => {
    expect(rendererCsp).toContain("script-src 'self'");
    expect(rendererCsp).not.toContain('unsafe-eval');
    expect(rendererCsp).toContain("object-src 'none'");
  });

  it('trusts only the app scheme as a caller', () => {
    expect(isTrustedRendererUrl('svc-app://renderer/index.html')).toBe(true);
    expect(isTrustedRendererUrl('https://evil.example/svc-app://renderer')).toBe(false);
    expect(isTrustedRendererUrl('file:///tmp/index.html')).toBe(false);
    expect(isTrustedRendererUrl('not a url')).toBe(false);
  });

  it('opens only http(s) links externally', () => {
    expect(isSafeExternalUrl('https://eur-lex.europa.eu/')).toBe(true);
    expect(isSafeExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isSafeExternalUrl('javascript:alert(1)')).toBe(false);
  });
});
