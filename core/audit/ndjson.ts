import { AppError } from '../errors.ts';

/** Longest NDJSON line accepted (UTF-16 characters, about bytes for JSON); a record is metadata, so anything longer is a client mistake. */
export const maxLineBytes = 1024 * 1024;

export type Line = { readonly number: number; readonly text: string; readonly bytesRead: number };

/**
 * Splits a byte or text stream into lines (LF or CRLF) without holding more than one line plus one chunk in
 * memory. Decodes UTF-8 across chunk borders. Numbers lines from 1, blank lines included.
 */
export async function* ndjsonLines(source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>): AsyncGenerator<Line> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let pending = '';
  let number = 0;
  let bytesRead = 0;
  const tooLong = (): AppError => new AppError('PAYLOAD_TOO_LARGE', `line ${number}: longer than ${maxLineBytes} characters`);
  for await (const chunk of source) {
    bytesRead += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n', start)) {
      number += 1;
      if (newline - start > maxLineBytes) throw tooLong();
      const text = pending.slice(start, newline);
      yield { number, text: text.endsWith('\r') ? text.slice(0, -1) : text, bytesRead };
      start = newline + 1;
    }
    pending = pending.slice(start);
    if (pending.length > maxLineBytes) {
      number += 1;
      throw tooLong();
    }
  }
  pending += decoder.decode();
  if (pending.length > 0) {
    number += 1;
    yield { number, text: pending.endsWith('\r') ? pending.slice(0, -1) : pending, bytesRead };
  }
}

/** Cuts text into pieces so a large in-memory import reports progress as it goes. */
export function* textChunks(text: string, size = 64 * 1024): Generator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}
