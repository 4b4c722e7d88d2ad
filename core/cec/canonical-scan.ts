/**
 * The byte-level scan of a record line in the builder's canonical layout (envelope fields in the builder's
 * order, no whitespace, the payload already in RFC 8785 form, every string and number in the one form JCS
 * writes): it only ever says "canonical, the members are here and this is the hashed text" or "not this layout"
 * (null), without JSON.parse, an object per field or a re-serialisation. canonical-line.ts finishes the check
 * (UTF-8, schema key, hash) and anything declined goes to the exact path (record-line.ts).
 *
 * This TypeScript scanner is the reference; canonical-scan.wat is the same scan in WebAssembly (a little over
 * half the CPU a line alone; svc verify's CPU at 1M records drops by a fifth: docs/decisions.md "Verify speed,
 * fourth pass"), which verification runs where it can (canonical-scan-wasm.ts), and where it cannot (node
 * --jitless has no WebAssembly) this one runs. canonical-scan-wasm.test.ts holds the two to the same answers,
 * field for field and byte for byte.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

export const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');
const literals = [ascii('true'), ascii('false'), ascii('null')];
/** The escapes JSON.stringify writes with a short form: \" \\ \b \f \n \r \t. */
const shortEscapes = new Set([QUOTE, BACKSLASH, 0x62, 0x66, 0x6e, 0x72, 0x74]);
/** Control characters JSON.stringify writes as \b \t \n \f \r (so never as \u00xx). */
const shortControls = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

const lowerHex = new Uint8Array(256);
for (const c of Buffer.from('0123456789abcdef', 'latin1')) lowerHex[c] = 1;

/** What a byte means inside a JSON string: most are ORDINARY; a raw control character is never canonical. */
const ORDINARY = 0;
const END = 1;
const ESCAPE = 2;
const HIGH = 3;
const CONTROL = 4;
const stringByte = new Uint8Array(256).map((_, c) =>
  c === QUOTE ? END : c === BACKSLASH ? ESCAPE : c >= 0x80 ? HIGH : c < 0x20 ? CONTROL : ORDINARY,
);

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= ZERO && c <= NINE;
const hexValue = (c: number): number => (c <= NINE ? c - ZERO : c - 0x61 + 10);

/**
 * Whether a decimal without exponent is already the text ECMAScript's Number::toString writes for its value:
 * at most 15 significant digits (a double keeps them all, so the shortest round-trip text is this one), no
 * trailing zero in the fraction, and not below 1e-6 (toString writes those with an exponent). Everything else
 * is compared with String(Number(text)) by the caller.
 */
const plainDecimal = (zeroInteger: boolean, intDigits: number, fraction: number, leadingZeros: number, last: number): boolean => {
  if (fraction === 0) return intDigits <= 15;
  if (last === ZERO) return false;
  return zeroInteger ? leadingZeros <= 5 && fraction - leadingZeros <= 15 : intDigits + fraction <= 15;
};

/** Scans the bytes of a line; every method returns the position after what it read, or -1 (not canonical). */
class Scanner {
  line: Buffer = Buffer.alloc(0);
  end = 0;
  /** A byte >= 0x80 was seen: the line must then be valid UTF-8 (checked once, natively). */
  nonAscii = false;
  /** The last string scanned held an escape or a non-ASCII byte. */
  plain = true;
  readonly #keyStart: Int32Array;
  readonly #keyEnd: Int32Array;
  readonly #isObject: Uint8Array;

  constructor(readonly maxDepth: number) {
    this.#keyStart = new Int32Array(maxDepth);
    this.#keyEnd = new Int32Array(maxDepth);
    this.#isObject = new Uint8Array(maxDepth);
  }

  reset(line: Buffer, end: number): void {
    this.line = line;
    this.end = end;
    this.nonAscii = false;
  }

  /** Expects exactly `bytes` at `at`. */
  literal(at: number, bytes: Buffer): number {
    const { line } = this;
    const length = bytes.length;
    if (at + length > this.end) return -1;
    for (let k = 0; k < length; k += 1) if (line[at + k] !== bytes[k]) return -1;
    return at + length;
  }

  /** A JSON string in the form JSON.stringify writes it, from its opening quote. */
  string(at: number): number {
    const { line, end } = this;
    if (line[at] !== QUOTE) return -1;
    this.plain = true;
    for (let i = at + 1; i < end; ) {
      const kind = stringByte[line[i] as number];
      if (kind === ORDINARY) i += 1;
      else if (kind === END) return i + 1;
      else if (kind === HIGH) {
        this.nonAscii = true;
        this.plain = false;
        i += 1;
      } else if (kind === ESCAPE) {
        this.plain = false;
        const e = line[i + 1] as number;
        if (shortEscapes.has(e)) i += 2;
        else if (e === 0x75 && i + 6 <= end && line[i + 2] === ZERO && line[i + 3] === ZERO) {
          const h = line[i + 4] as number;
          const l = line[i + 5] as number;
          // Only control characters are \u-escaped, in lowercase hex, and not those with a short form.
          if ((h !== ZERO && h !== 0x31) || lowerHex[l] !== 1 || shortControls.has((h - ZERO) * 16 + hexValue(l))) return -1;
          i += 6;
        } else return -1;
      } else return -1;
    }
    return -1;
  }

  /** The byte at `i`, or -1 past the end of the line. */
  at(i: number): number {
    return i < this.end ? (this.line[i] as number) : -1;
  }

  /** Skips the digits from `i`; returns the position after them. */
  digits(i: number): number {
    let k = i;
    while (isDigit(this.at(k))) k += 1;
    return k;
  }

  /** A JSON number written exactly as ECMAScript's Number::toString writes its value. */
  number(start: number): number {
    let i = this.at(start) === MINUS ? start + 1 : start;
    const intStart = i;
    if (this.at(i) === ZERO) i += 1;
    else if (isDigit(this.at(i))) i = this.digits(i);
    else return -1;
    const intDigits = i - intStart;
    let fraction = 0;
    let leadingZeros = 0;
    if (this.at(i) === 0x2e) {
      if (!isDigit(this.at(i + 1))) return -1;
      const fractionStart = i + 1;
      i = this.digits(fractionStart);
      fraction = i - fractionStart;
      while (leadingZeros < fraction && this.at(fractionStart + leadingZeros) === ZERO) leadingZeros += 1;
    }
    let exponent = false;
    if (this.at(i) === 0x65 || this.at(i) === 0x45) {
      exponent = true;
      i += this.at(i + 1) === 0x2b || this.at(i + 1) === MINUS ? 2 : 1;
      if (!isDigit(this.at(i))) return -1;
      i = this.digits(i);
    }
    if (!exponent && plainDecimal(this.at(intStart) === ZERO, intDigits, fraction, leadingZeros, this.at(i - 1)))
      return start !== intStart && intDigits === 1 && fraction === 0 && this.at(intStart) === ZERO ? -1 : i;
    const text = this.line.toString('latin1', start, i);
    return String(Number(text)) === text ? i : -1;
  }

  /** An object key: a plain ASCII string (no escapes), strictly after the previous key of the same object. */
  #key(at: number, depth: number, first: boolean): number {
    const after = this.string(at);
    if (after < 0 || !this.plain) return -1;
    if (!first) {
      // Plain ASCII: byte order is UTF-16 code-unit order, the order RFC 8785 sorts keys by.
      const start = this.#keyStart[depth] as number;
      const length = (this.#keyEnd[depth] as number) - start;
      const keyLength = after - at;
      let order = 0;
      for (let k = 0; k < Math.min(length, keyLength) && order === 0; k += 1)
        order = (this.line[at + k] as number) - (this.line[start + k] as number);
      if (order < 0 || (order === 0 && keyLength <= length)) return -1;
    }
    this.#keyStart[depth] = at;
    this.#keyEnd[depth] = after;
    if (after >= this.end || this.line[after] !== COLON) return -1;
    return after + 1;
  }

  /**
   * One JSON value in RFC 8785 form, iteratively (an explicit stack, never deeper than maxDepth - 1 levels, so
   * the general path judges anything near the nesting limit).
   */
  value(at: number): number {
    const { line, end } = this;
    let depth = 0;
    let i = at;
    for (;;) {
      // A value starts at i.
      if (i >= end) return -1;
      const c = line[i];
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (depth + 1 >= this.maxDepth) return -1;
        depth += 1;
        const object = c === OPEN_OBJECT;
        this.#isObject[depth] = object ? 1 : 0;
        i += 1;
        if (line[i] !== (object ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          if (object) i = this.#key(i, depth, true);
          if (i < 0) return -1;
          continue;
        }
        i += 1;
        depth -= 1;
      } else if (c === QUOTE) i = this.string(i);
      else if (c === MINUS || isDigit(c)) i = this.number(i);
      else if (c === 0x74) i = this.literal(i, literals[0] as Buffer);
      else if (c === 0x66) i = this.literal(i, literals[1] as Buffer);
      else if (c === 0x6e) i = this.literal(i, literals[2] as Buffer);
      else return -1;
      if (i < 0) return -1;
      // After a value: close containers, or a comma and the next member.
      for (;;) {
        if (depth === 0) return i;
        if (i >= end) return -1;
        const object = this.#isObject[depth] === 1;
        const next = line[i];
        if (next === COMMA) {
          i = object ? this.#key(i + 1, depth, false) : i + 1;
          if (i < 0) return -1;
          break;
        }
        if (next !== (object ? CLOSE_OBJECT : CLOSE_ARRAY)) return -1;
        i += 1;
        depth -= 1;
      }
    }
  }
}

/** The record's members in JCS order, as the builder writes them; the values between these texts are scanned. */
const layout = {
  hash: ascii('{"hash":"'),
  payload: ascii('","payload":'),
  prevHash: ascii(',"prev_hash":"'),
  projectId: ascii('","project_id":'),
  recordId: ascii(',"record_id":'),
  recordedAt: ascii(',"recorded_at":'),
  schemaKey: ascii(',"schema_key":'),
  seq: ascii(',"seq":'),
  timestamp: ascii(',"timestamp":'),
};

/** Where a canonical line's members are (positions in the scanned buffer; strings from their opening quote). */
export class LineFields {
  hashAt = 0;
  prevHash = 0;
  projectId = 0;
  projectIdEnd = 0;
  recordedAt = 0;
  recordedAtEnd = 0;
  schemaKey = 0;
  schemaKeyEnd = 0;
  timestamp = 0;
  timestampEnd = 0;
  seq = 0;
  /** A byte >= 0x80 was seen: the line must then be valid UTF-8 (the caller checks it once, natively). */
  nonAscii = false;
}

/** A scanner of canonical lines; one instance per thread and verification (it reuses its buffers). */
export interface LineScanner {
  /** The last accepted line's members. */
  readonly fields: LineFields;
  /**
   * Scans `line[start, end)`: null when it is not in the canonical layout, else its hashed text
   * `prev_hash + "{" + the line after its hash member` (exactly prev_hash + JCS(record without hash)), valid
   * until the next call, with `fields` filled in.
   */
  scan(line: Buffer, start: number, end: number): Uint8Array | null;
}

/** The reference scanner, in TypeScript. */
export class JsLineScanner implements LineScanner {
  readonly fields = new LineFields();
  readonly #scanner: Scanner;
  #scratch = Buffer.allocUnsafe(64 * 1024);

  constructor(maxDepth: number) {
    this.#scanner = new Scanner(maxDepth);
  }

  /** A string member that becomes a JS string: plain ASCII, no escapes. Returns its end or -1. */
  #plainString(at: number): number {
    const after = this.#scanner.string(at);
    return after >= 0 && this.#scanner.plain ? after : -1;
  }

  scan(line: Buffer, start: number, end: number): Uint8Array | null {
    const s = this.#scanner;
    s.reset(line, end);
    const hashAt = s.literal(start, layout.hash);
    // Not checked as hex here: it must equal the recomputed lowercase hex digest, which no other text does.
    const hashEnd = hashAt < 0 || hashAt + 64 > end ? -1 : hashAt + 64;
    const payload = hashEnd < 0 ? -1 : s.literal(hashEnd, layout.payload);
    if (payload < 0 || line[payload] !== OPEN_OBJECT) return null;
    const payloadEnd = s.value(payload);
    const prevHash = payloadEnd < 0 ? -1 : s.literal(payloadEnd, layout.prevHash);
    // prev_hash is checked as lowercase hex while it is copied into the hashed text, below.
    const prevHashEnd = prevHash < 0 || prevHash + 64 > end ? -1 : prevHash + 64;
    const projectId = prevHashEnd < 0 ? -1 : s.literal(prevHashEnd, layout.projectId);
    const projectIdEnd = projectId < 0 ? -1 : this.#plainString(projectId);
    const recordId = projectIdEnd < 0 ? -1 : s.literal(projectIdEnd, layout.recordId);
    const recordIdEnd = recordId < 0 ? -1 : s.string(recordId);
    const recordedAt = recordIdEnd < 0 ? -1 : s.literal(recordIdEnd, layout.recordedAt);
    const recordedAtEnd = recordedAt < 0 ? -1 : this.#plainString(recordedAt);
    const schemaKey = recordedAtEnd < 0 ? -1 : s.literal(recordedAtEnd, layout.schemaKey);
    const schemaKeyEnd = schemaKey < 0 ? -1 : this.#plainString(schemaKey);
    const seqAt = schemaKeyEnd < 0 ? -1 : s.literal(schemaKeyEnd, layout.seq);
    if (seqAt < 0 || line[seqAt] === ZERO) return null;
    let seq = 0;
    let seqEnd = seqAt;
    for (; seqEnd < end && isDigit(line[seqEnd]); seqEnd += 1) seq = seq * 10 + ((line[seqEnd] as number) - ZERO);
    if (seqEnd === seqAt || seqEnd - seqAt > 15) return null;
    const timestamp = s.literal(seqEnd, layout.timestamp);
    const timestampEnd = timestamp < 0 ? -1 : this.#plainString(timestamp);
    if (timestampEnd < 0 || timestampEnd + 1 !== end || line[timestampEnd] !== CLOSE_OBJECT) return null;

    // prev_hash + "{" + the line after `{"hash":"<hex>",`: exactly prev_hash + JCS(record without hash).
    const bodyStart = hashEnd + 2;
    if (this.#scratch.length < 65 + end - bodyStart) this.#scratch = Buffer.allocUnsafe(2 * (65 + end - bodyStart));
    const scratch = this.#scratch;
    for (let k = 0; k < 64; k += 1) {
      const c = line[prevHash + k] as number;
      if (lowerHex[c] !== 1) return null;
      scratch[k] = c;
    }
    scratch[64] = OPEN_OBJECT;
    const length = 65 + line.copy(scratch, 65, bodyStart, end);
    const f = this.fields;
    f.hashAt = hashAt;
    f.prevHash = prevHash;
    f.projectId = projectId;
    f.projectIdEnd = projectIdEnd;
    f.recordedAt = recordedAt;
    f.recordedAtEnd = recordedAtEnd;
    f.schemaKey = schemaKey;
    f.schemaKeyEnd = schemaKeyEnd;
    f.timestamp = timestamp;
    f.timestampEnd = timestampEnd;
    f.seq = seq;
    f.nonAscii = s.nonAscii;
    return scratch.subarray(0, length);
  }
}
