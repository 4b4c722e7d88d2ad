import http from 'node:http';
import https from 'node:https';

export type RawReply = { readonly status: number; readonly body: string };

/** Failures below HTTP: refused, reset, DNS, timeout. Always retryable (spec 4.1 rule 1). */
export class NetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

const maxReplyBytes = 16 * 1024 * 1024;

/**
 * One POST with Node's built-in HTTP client. `timeoutMs` bounds the whole attempt (connect, send, wait, read),
 * so a server that accepts and then hangs cannot hold the caller past it.
 */
export const postJson = (url: URL, headers: Record<string, string>, body: string, timeoutMs: number): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxReplyBytes) {
            request.destroy(new NetworkError('Reply larger than 16 MiB'));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', (error) => reject(new NetworkError(error.message, { cause: error })));
      },
    );
    const timer = setTimeout(() => request.destroy(new NetworkError(`Timed out after ${timeoutMs} ms`)), timeoutMs);
    request.on('error', (error) => reject(error instanceof NetworkError ? error : new NetworkError(error.message, { cause: error })));
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
