import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { rendererCsp } from './window-options.ts';

const mimeTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * Answers `svc-app://renderer/<path>` from the built renderer directory. Paths are normalised and must stay inside
 * it; unknown paths get index.html (client-side routes). Every response carries the CSP.
 */
export const rendererResponder =
  (rendererDir: string) =>
  async (requestUrl: string): Promise<Response> => {
    const path = decodeURIComponent(new URL(requestUrl).pathname);
    const resolved = normalize(join(rendererDir, path));
    const inside = resolved === rendererDir || resolved.startsWith(rendererDir + sep);
    const headers = { 'Content-Security-Policy': rendererCsp, 'X-Content-Type-Options': 'nosniff' };
    if (!inside) return new Response('Forbidden', { status: 403, headers });
    try {
      const body = await readFile(resolved);
      return new Response(body, { headers: { ...headers, 'Content-Type': mimeTypes[extname(resolved)] ?? 'application/octet-stream' } });
    } catch {
      const index = await readFile(join(rendererDir, 'index.html'));
      return new Response(index, { headers: { ...headers, 'Content-Type': mimeTypes['.html'] ?? 'text/html' } });
    }
  };
