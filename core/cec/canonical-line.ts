/**
 * Fast path of the record check. A record line exactly as the bundle builder writes it (envelope fields in the
 * builder's order, no whitespace, the payload already in RFC 8785 form, every string and number in the one
 * form JCS writes) is checked on its UTF-8 bytes: no JSON.parse, no object per field, no re-serialisation. The
 * hashed text `prev_hash + JCS(record without hash)` is then the payload's own bytes plus the envelope fields
 * spliced in JCS key order, so one SHA-256 gives the record hash.
 *
 * The scan (canonical-scan.ts, in WebAssembly where it can run) only ever says "canonical, here are the fields"
 * or "not this layout" (null): anything it does not prove canonical (an escape JSON.stringify would not write, a
 * non-ASCII or escaped key, an unsorted key, a number in a non-ECMAScript form, whitespace, deep nesting, another
 * field order) goes to the general path (record-line.ts), which parses and canonicalises it exactly. So both
 * paths give the same verdict; a test holds them to it on generated and hostile lines.
 */
import { isUtf8 } from 'node:buffer';
import { hash } from 'node:crypto';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import { ascii, type LineScanner } from './canonical-scan.ts';
import { createLineScanner } from './canonical-scan-wasm.ts';
import type { CheckedRecord } from './record-line.ts';

const quotedSchemaKeys = schemaKeys.map((key) => ({ key, bytes: ascii(JSON.stringify(key)) }));

/** The schema key whose JSON string is `line[start, end)`, or null (lines of the six folders interleave). */
const knownSchemaKey = (line: Buffer, start: number, end: number): SchemaKey | null => {
  for (const { key, bytes } of quotedSchemaKeys) {
    if (bytes.length !== end - start) continue;
    let k = 0;
    while (k < bytes.length && bytes[k] === line[start + k]) k += 1;
    if (k === bytes.length) return key;
  }
  return null;
};

/** The string of the last bytes seen, reused while the bytes repeat (a project id, a key, a batch's recorded_at). */
class LastString {
  #bytes = Buffer.alloc(0);
  #text = '';

  /** `line[start, end)` as a string (ASCII). */
  of(line: Buffer, start: number, end: number): string {
    const bytes = this.#bytes;
    let same = bytes.length === end - start;
    for (let k = 0; same && k < bytes.length; k += 1) same = bytes[k] === line[start + k];
    if (!same) {
      this.#bytes = Buffer.from(line.subarray(start, end));
      this.#text = this.#bytes.toString('latin1');
    }
    return this.#text;
  }
}

/**
 * Checks lines in the builder's layout: the line is the record's own JCS text, so the hashed text is
 * `prev_hash + "{" + the line after its hash member`, which the scanner hands back. One instance per
 * verification (it reuses its buffers).
 */
export class CanonicalLineChecker {
  readonly #scanner: LineScanner;
  readonly #projectId = new LastString();
  readonly #recordedAt = new LastString();

  constructor(maxDepth: number, scanner: LineScanner = createLineScanner(maxDepth)) {
    this.#scanner = scanner;
  }

  /**
   * The record in `line[start, end)` with its hash recomputed, or null when the line is not in the builder's
   * canonical layout or its hash differs (the caller then takes the general path, which words the verdict).
   */
  check(line: Buffer, start: number, end: number): CheckedRecord | null {
    const hashed = this.#scanner.scan(line, start, end);
    if (hashed === null) return null;
    const f = this.#scanner.fields;
    if (f.nonAscii && !isUtf8(line.subarray(start, end))) return null;
    const schemaKey = knownSchemaKey(line, f.schemaKey, f.schemaKeyEnd);
    if (schemaKey === null) return null;
    const recordHash = line.toString('latin1', f.hashAt, f.hashAt + 64);
    if (hash('sha256', hashed, 'hex') !== recordHash) return null;
    return {
      seq: f.seq,
      project_id: this.#projectId.of(line, f.projectId + 1, f.projectIdEnd - 1),
      schema_key: schemaKey,
      timestamp: line.toString('latin1', f.timestamp + 1, f.timestampEnd - 1),
      recorded_at: this.#recordedAt.of(line, f.recordedAt + 1, f.recordedAtEnd - 1),
      prev_hash: line.toString('latin1', f.prevHash, f.prevHash + 64),
      hash: recordHash,
      content: 'ok',
    };
  }
}
