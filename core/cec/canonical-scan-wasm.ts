/**
 * The canonical-line scan in WebAssembly (canonical-scan.wat, compiled into canonical-scan-wasm-bytes.ts by
 * scripts/build-wasm.mjs): the same rules as the TypeScript reference (canonical-scan.ts), for a fraction of
 * its CPU. The line is copied into the module's memory (the reference copies it into its hashed-text buffer
 * anyway), scanned there, and the hashed text is written in place, so the SHA-256 reads it from that memory.
 */
import { canonicalScanWasm } from './canonical-scan-wasm-bytes.ts';
import { JsLineScanner, LineFields, type LineScanner } from './canonical-scan.ts';

type ScanExports = {
  readonly memory: WebAssembly.Memory;
  readonly check: (length: number, maxDepth: number) => number;
  readonly LINE: WebAssembly.Global;
  readonly FIELDS: WebAssembly.Global;
  readonly STACK: WebAssembly.Global;
};

let compiled: WebAssembly.Module | undefined;
/** Compiled once per thread, on first use (a few KB: microseconds). */
const scanModule = (): WebAssembly.Module => {
  compiled ??= new WebAssembly.Module(Buffer.from(canonicalScanWasm, 'base64'));
  return compiled;
};

const PAGE = 64 * 1024;

export class WasmLineScanner implements LineScanner {
  readonly fields = new LineFields();
  readonly #exports: ScanExports;
  readonly #lineAt: number;
  readonly #fieldsAt: number;
  #bytes!: Buffer;
  #positions!: Int32Array;
  #seq!: Float64Array;
  /** The line being scanned, for the numbers the module hands back (`#canonicalNumber`). */
  #line: Buffer = Buffer.alloc(0);
  #start = 0;

  /** Whether the module's container stack holds `maxDepth` levels (else every line is declined). */
  readonly fits: boolean;

  constructor(readonly maxDepth: number) {
    const instance = new WebAssembly.Instance(scanModule(), {
      js: { number: (start: number, end: number) => this.#canonicalNumber(start, end) },
    });
    this.#exports = instance.exports as ScanExports;
    this.fits = maxDepth <= this.#exports.STACK.value;
    this.#lineAt = this.#exports.LINE.value;
    this.#fieldsAt = this.#exports.FIELDS.value;
    this.#views();
  }

  /** Views of the module's memory (again after it grows, which detaches the old buffer). */
  #views(): void {
    const { buffer } = this.#exports.memory;
    this.#bytes = Buffer.from(buffer);
    this.#positions = new Int32Array(buffer, this.#fieldsAt, 11);
    this.#seq = new Float64Array(buffer, this.#fieldsAt + 64, 1);
  }

  /** A number the module could not prove canonical by rule: Number::toString's text for its value? (1 / 0) */
  #canonicalNumber(start: number, end: number): number {
    const text = this.#line.toString('latin1', this.#start + start, this.#start + end);
    return String(Number(text)) === text ? 1 : 0;
  }

  scan(line: Buffer, start: number, end: number): Uint8Array | null {
    if (!this.fits) return null;
    const length = end - start;
    // The line, the 0 the module writes after it, and the rest of a 16-byte read that starts at that 0.
    const needed = this.#lineAt + length + 16;
    if (needed > this.#bytes.length) {
      this.#exports.memory.grow(Math.ceil((needed - this.#bytes.length) / PAGE));
      this.#views();
    }
    line.copy(this.#bytes, this.#lineAt, start, end);
    this.#line = line;
    this.#start = start;
    if (this.#exports.check(length, this.maxDepth) === 0) return null;
    const p = this.#positions;
    const f = this.fields;
    f.hashAt = start + (p[0] as number);
    f.prevHash = start + (p[1] as number);
    f.projectId = start + (p[2] as number);
    f.projectIdEnd = start + (p[3] as number);
    f.recordedAt = start + (p[4] as number);
    f.recordedAtEnd = start + (p[5] as number);
    f.schemaKey = start + (p[6] as number);
    f.schemaKeyEnd = start + (p[7] as number);
    f.timestamp = start + (p[8] as number);
    f.timestampEnd = start + (p[9] as number);
    f.nonAscii = p[10] === 1;
    f.seq = this.#seq[0] as number;
    return this.#bytes.subarray(this.#lineAt + (p[0] as number) + 1, this.#lineAt + length);
  }
}

/** The WebAssembly scanner, or the reference where WebAssembly is unavailable (node --jitless) or too shallow. */
export const createLineScanner = (maxDepth: number): LineScanner => {
  if (typeof WebAssembly !== 'object') return new JsLineScanner(maxDepth);
  const scanner = new WasmLineScanner(maxDepth);
  return scanner.fits ? scanner : new JsLineScanner(maxDepth);
};
