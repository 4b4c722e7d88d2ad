import type { z } from 'zod';
import { checksOf, type Def, defOf, lengthBounds, numberCheck, refinements, stringCheck } from './fast-checks.ts';

/**
 * A compiled fast path for the evidence schemas (issue 12): the zod parse cost ~12 µs a record on ingest.
 *
 * `compileFast(schema)` turns a zod schema into a function that returns the RFC 8785 (JCS) text of a value when
 * it can PROVE zod would accept the value and return an equal one, and `undefined` otherwise ("let zod decide").
 * Callers run the zod schema whenever the fast path says `undefined`, so acceptance and error messages are zod's
 * by construction; the fast path only has to be sound, never complete. It is conservative on purpose: plain
 * objects only, no symbols in records, no `__proto__`/`constructor` keys, no transforms that would change a
 * value (a `.trim()` that trims bails), well-formed strings only, bounded depth. core/audit/fast-payload.test.ts
 * checks it against zod and the `canonicalize` package on generated valid and invalid payloads.
 *
 * Compilation reads zod's definitions, so the schemas stay the one place the rules are written; a schema part
 * this compiler does not understand throws at start-up (a test compiles every payload schema). Validation and
 * JCS writing are one walk into one parts buffer joined once: no intermediate strings, little garbage.
 */
declare global {
  // ES2024, present in Node 20; the project's TypeScript lib is older.
  interface String {
    isWellFormed(): boolean;
  }
}

export type FastEmit = (value: unknown) => string | undefined;
/** Writes the JCS of `value` into `out` and returns true, or returns false (the caller discards `out`). */
type Node = (value: unknown, depth: number, out: string[]) => boolean;

/** Deeper values go to zod and jcs (which own the nesting limit); evidence payloads are shallow. */
const maxFastDepth = 16;

/** An object zod and JSON treat alike: Object.prototype or null prototype (symbol keys are checked where they matter). */
export const isPlain = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};
const isPlainArray = (value: unknown): value is unknown[] => Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
/** Keys that make zod copy differently from JSON (prototype setter, isPlainObject's constructor probe). */
const awkwardKey = (key: string): boolean => key === '__proto__' || key === 'constructor';

/**
 * Writes the JSON string literal of a well-formed string (what JSON.stringify and JCS write); false for a lone
 * surrogate. Strings with nothing to escape (the usual case) skip the native call.
 */
const quote = (text: string, out: string[]): boolean => {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff)) {
      if (!text.isWellFormed()) return false;
      out.push(JSON.stringify(text));
      return true;
    }
  }
  out.push('"', text, '"');
  return true;
};

/** `[a,b]` of an array's items, each through `item`. */
const writeArray = (value: unknown[], depth: number, out: string[], item: Node): boolean => {
  out.push('[');
  for (let i = 0; i < value.length; i++) {
    if (i > 0) out.push(',');
    if (!item(value[i], depth + 1, out)) return false;
  }
  out.push(']');
  return true;
};

/** Pure JSON data (z.unknown()): strings, finite numbers, booleans, null, arrays and plain objects of those. */
const jsonData: Node = (value, depth, out) => {
  switch (typeof value) {
    case 'string':
      return quote(value, out);
    case 'number':
      out.push(`${value}`);
      return Number.isFinite(value);
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return true;
    case 'object':
      if (value === null) {
        out.push('null');
        return true;
      }
      if (depth >= maxFastDepth) return false;
      if (isPlainArray(value)) return writeArray(value, depth, out, jsonData);
      return writeSorted(value, depth, out, anyKey, jsonData, true);
    default:
      return false;
  }
};
const anyKey = (): boolean => true;

/**
 * `{"k":v,...}` with keys in UTF-16 order (JCS). `undefinedOk`: an undefined value is left out, as JSON does
 * (free JSON and z.unknown() values); otherwise it fails, because a typed value schema rejects undefined.
 */
const writeSorted = (
  value: object,
  depth: number,
  out: string[],
  keyOk: (key: string) => boolean,
  item: Node,
  undefinedOk: boolean,
): boolean => {
  // Symbol keys: JSON skips them, a zod record rejects them.
  if (!isPlain(value) || Object.getOwnPropertySymbols(value).length > 0) return false;
  out.push('{');
  let first = true;
  for (const key of Object.keys(value).sort()) {
    if (awkwardKey(key) || !keyOk(key)) return false;
    const raw = value[key];
    if (raw === undefined) {
      if (undefinedOk) continue;
      return false;
    }
    if (!first) out.push(',');
    first = false;
    if (!quote(key, out)) return false;
    out.push(':');
    if (!item(raw, depth + 1, out)) return false;
  }
  out.push('}');
  return true;
};

const objectNode = (def: Def): Node => {
  if (def.catchall === undefined || defOf(def.catchall).type !== 'never') throw new TypeError('fast path: only strict objects');
  const shape = def.shape as Record<string, unknown>;
  const fields = Object.keys(shape)
    .sort()
    .map((key) => {
      const field = defOf(shape[key]);
      const optional = field.type === 'optional';
      return { key, name: JSON.stringify(key), optional, node: compileNode(optional ? field.innerType : shape[key]) };
    });
  const known = new Set(fields.map((field) => field.key));
  const refined = refinements(def, true);
  return (value, depth, out) => {
    if (!isPlain(value) || depth >= maxFastDepth) return false;
    for (const key in value) if (!known.has(key)) return false;
    out.push('{');
    let first = true;
    for (const field of fields) {
      const item = value[field.key];
      if (item === undefined) {
        if (field.optional) continue;
        return false;
      }
      out.push(first ? field.name : `,${field.name}`, ':');
      first = false;
      if (!field.node(item, depth + 1, out)) return false;
    }
    out.push('}');
    return refined(value);
  };
};

function compileNode(schema: unknown): Node {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      const ok = stringCheck(def);
      return (value, _depth, out) => typeof value === 'string' && ok(value) && quote(value, out);
    }
    case 'number': {
      const ok = numberCheck(def);
      return (value, _depth, out) => {
        if (typeof value !== 'number' || !ok(value)) return false;
        out.push(`${value}`);
        return true;
      };
    }
    case 'boolean':
      refinements(def, false);
      return (value, _depth, out) => {
        if (typeof value !== 'boolean') return false;
        out.push(value ? 'true' : 'false');
        return true;
      };
    case 'enum': {
      const values = new Set(Object.values(def.entries as Record<string, unknown>));
      return (value, _depth, out) => typeof value === 'string' && values.has(value) && quote(value, out);
    }
    case 'unknown':
      return jsonData;
    case 'union': {
      const options = (def.options as unknown[]).map(compileNode);
      return (value, depth, out) => {
        const mark = out.length;
        for (const option of options) {
          if (option(value, depth, out)) return true;
          out.length = mark;
        }
        return false;
      };
    }
    case 'array': {
      const element = compileNode(def.element);
      const { min, max } = lengthBounds(checksOf(def));
      return (value, depth, out) =>
        isPlainArray(value) && depth < maxFastDepth && value.length >= min && value.length <= max && writeArray(value, depth, out, element);
    }
    case 'record': {
      const keyDef = defOf(def.keyType);
      if (keyDef.type !== 'string') throw new TypeError('fast path: only string record keys');
      refinements(def, false);
      const keyOk = stringCheck(keyDef);
      const valueNode = compileNode(def.valueType);
      const undefinedOk = defOf(def.valueType).type === 'unknown';
      return (value, depth, out) =>
        depth < maxFastDepth &&
        typeof value === 'object' &&
        value !== null &&
        writeSorted(value, depth, out, keyOk, valueNode, undefinedOk);
    }
    case 'object':
      return objectNode(def);
    default:
      throw new TypeError(`fast path: unsupported schema type ${def.type}`);
  }
}

/** Compiles a zod schema into its fast path (see the module comment). Throws on schema parts it cannot prove. */
export const compileFast = (schema: z.ZodType): FastEmit => {
  const node = compileNode(schema);
  const out: string[] = [];
  return (value) => {
    out.length = 0;
    const text = node(value, 0, out) ? out.join('') : undefined;
    out.length = 0;
    return text;
  };
};

/** A compiled check of one object field's value (the envelope's ids and timestamp); absent passes when optional. */
export const compileFieldCheck = (schema: z.ZodType): ((value: unknown) => boolean) => {
  const def = defOf(schema);
  const optional = def.type === 'optional';
  const node = compileNode(optional ? def.innerType : schema);
  const out: string[] = [];
  return (value) => {
    if (value === undefined) return optional;
    out.length = 0;
    return node(value, 0, out);
  };
};
