import type { z } from 'zod';

/**
 * A compiled fast path for the evidence schemas (issue 12): the zod parse cost ~12 µs a record on ingest.
 *
 * `compileFast(schema)` turns a zod schema into a function that returns the RFC 8785 (JCS) text of a value when
 * it can PROVE zod would accept the value and return an equal one, and `undefined` otherwise ("let zod decide").
 * Callers run the zod schema whenever the fast path says `undefined`, so acceptance and error messages are zod's
 * by construction; the fast path only has to be sound, never complete. It is conservative on purpose: plain
 * objects only, no symbols, no `__proto__`/`constructor` keys, no transforms that would change a value (a
 * `.trim()` that trims bails), well-formed strings only, bounded depth. core/audit/fast-payload.test.ts checks
 * it against zod and the `canonicalize` package on generated valid and invalid payloads.
 *
 * Compilation reads zod's definitions, so the schemas stay the one place the rules are written; a schema part
 * this compiler does not understand throws at start-up (a test compiles every payload schema).
 */
declare global {
  // ES2024, present in Node 20; the project's TypeScript lib is older.
  interface String {
    isWellFormed(): boolean;
  }
}

export type FastEmit = (value: unknown) => string | undefined;
type Node = (value: unknown, depth: number) => string | undefined;

/** Deeper values go to zod and jcs (which own the nesting limit); evidence payloads are shallow. */
const maxFastDepth = 16;

type Def = {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  [key: string]: unknown;
};
type CheckDef = { check: string; [key: string]: unknown };
type AnySchema = { _zod: { def: Def } };

const defOf = (schema: unknown): Def => (schema as AnySchema)._zod.def;
const checksOf = (def: Def): CheckDef[] => (def.checks ?? []).map((check) => check._zod.def);

/** An object zod and JSON treat alike: Object.prototype or null prototype (symbol keys are checked where they matter). */
export const isPlain = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};
/** Keys that make zod copy differently from JSON (prototype setter, isPlainObject's constructor probe). */
const awkwardKey = (key: string): boolean => key === '__proto__' || key === 'constructor';

/** Code points of a well-formed string (zod measures lengths in code points). */
const codePoints = (text: string): number => {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) count -= 1;
  }
  return count;
};

/**
 * The JSON string literal of a well-formed string (what JSON.stringify and JCS write), undefined for a lone
 * surrogate. Strings with nothing to escape (the usual case) skip the native call.
 */
const quote = (text: string): string | undefined => {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff)) {
      return text.isWellFormed() ? JSON.stringify(text) : undefined;
    }
  }
  return `"${text}"`;
};

/** Pure JSON data (z.unknown()): strings, finite numbers, booleans, null, arrays and plain objects of those. */
const jsonData: Node = (value, depth) => {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? `${value}` : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth >= maxFastDepth) return undefined;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return undefined;
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const item = jsonData(value[i], depth + 1);
          if (item === undefined) return undefined;
          out += i === 0 ? item : `,${item}`;
        }
        return `${out}]`;
      }
      return sortedObject(value, depth, () => true, jsonData, true);
    }
    default:
      return undefined;
  }
};

/**
 * `{"k":v,...}` with keys in UTF-16 order (JCS). `undefinedOk`: an undefined value is left out, as JSON does
 * (free JSON and z.unknown() values); otherwise it bails, because a typed value schema rejects undefined.
 */
const sortedObject = (
  value: object,
  depth: number,
  keyOk: (key: string) => boolean,
  item: Node,
  undefinedOk: boolean,
): string | undefined => {
  // Symbol keys: JSON skips them, a zod record rejects them.
  if (!isPlain(value) || Object.getOwnPropertySymbols(value).length > 0) return undefined;
  const keys = Object.keys(value).sort();
  let out = '{';
  for (const key of keys) {
    if (awkwardKey(key) || !keyOk(key)) return undefined;
    const raw = (value as Record<string, unknown>)[key];
    if (raw === undefined) {
      if (undefinedOk) continue;
      return undefined;
    }
    const text = item(raw, depth + 1);
    const name = quote(key);
    if (text === undefined || name === undefined) return undefined;
    out += `${out.length > 1 ? ',' : ''}${name}:${text}`;
  }
  return `${out}}`;
};

/** An array's min/max length checks as numbers. */
const lengthBounds = (checks: CheckDef[]): { min: number; max: number } => {
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  for (const check of checks) {
    if (check.check === 'min_length') min = Math.max(min, check.minimum as number);
    else if (check.check === 'max_length') max = Math.min(max, check.maximum as number);
    else throw new TypeError(`fast path: unsupported length check ${check.check}`);
  }
  return { min, max };
};

/** A string's checks as plain data, so one monomorphic function tests them all. */
const stringNode = (def: Def): ((text: string) => boolean) => {
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  const patterns: RegExp[] = [];
  const overwrites: ((text: string) => unknown)[] = [];
  const all = [...(typeof def.check === 'string' ? [def as unknown as CheckDef] : []), ...checksOf(def)];
  for (const check of all) {
    if (check.check === 'overwrite') overwrites.push(check.tx as (text: string) => unknown);
    else if (check.check === 'min_length') min = Math.max(min, check.minimum as number);
    else if (check.check === 'max_length') max = Math.min(max, check.maximum as number);
    else if (check.check === 'string_format') {
      const pattern = check.pattern as RegExp | undefined;
      if (!(pattern instanceof RegExp) || pattern.global || pattern.sticky || !['regex', 'datetime'].includes(check.format as string)) {
        throw new TypeError(`fast path: unsupported string format ${String(check.format)}`);
      }
      patterns.push(pattern);
    } else throw new TypeError(`fast path: unsupported string check ${check.check}`);
  }
  // Lengths in code points like zod: UTF-16 length bounds them (cp <= units <= 2 cp), so most strings need no count.
  return (text) => {
    const units = text.length;
    if (units < min || (units < 2 * min && codePoints(text) < min)) return false;
    if (units > max && codePoints(text) > max) return false;
    for (const tx of overwrites) if (tx(text) !== text) return false;
    for (const pattern of patterns) if (!pattern.test(text)) return false;
    return true;
  };
};

/** A number's checks as bounds: finite always (zod 4 rejects NaN and infinities), safe integer for z.int(). */
const numberNode = (def: Def): ((n: number) => boolean) => {
  if (def.format !== undefined && def.format !== 'safeint')
    throw new TypeError(`fast path: unsupported number format ${String(def.format)}`);
  const integer = def.format === 'safeint';
  let low = Number.NEGATIVE_INFINITY;
  let lowInclusive = true;
  let high = Number.POSITIVE_INFINITY;
  let highInclusive = true;
  for (const check of checksOf(def)) {
    if (typeof check.value !== 'number') throw new TypeError('fast path: non-numeric bound');
    const value = check.value;
    const inclusive = check.inclusive === true;
    if (check.check === 'greater_than') {
      // The tighter bound wins; at equal bounds, exclusive wins.
      if (value > low) [low, lowInclusive] = [value, inclusive];
      else if (value === low) lowInclusive &&= inclusive;
    } else if (check.check === 'less_than') {
      if (value < high) [high, highInclusive] = [value, inclusive];
      else if (value === high) highInclusive &&= inclusive;
    } else throw new TypeError(`fast path: unsupported number check ${check.check}`);
  }
  return (n) =>
    Number.isFinite(n) &&
    (!integer || Number.isSafeInteger(n)) &&
    (lowInclusive ? n >= low : n > low) &&
    (highInclusive ? n <= high : n < high);
};

/** Refinements (`.refine`): run on the input, which equals zod's output whenever the fast path accepts. */
const refinements = (def: Def, allowed: boolean): ((value: unknown) => boolean) => {
  const fns = checksOf(def).map((check) => {
    if (!allowed || check.check !== 'custom' || typeof check.fn !== 'function')
      throw new TypeError(`fast path: unsupported check ${check.check}`);
    return check.fn as (value: unknown) => unknown;
  });
  return (value) => {
    try {
      return fns.every((fn) => fn(value) === true);
    } catch {
      return false;
    }
  };
};

const objectNode = (def: Def): Node => {
  if (def.catchall === undefined || defOf(def.catchall).type !== 'never') throw new TypeError('fast path: only strict objects');
  const shape = def.shape as Record<string, unknown>;
  const fields = Object.keys(shape)
    .sort()
    .map((key) => {
      const field = defOf(shape[key]);
      const optional = field.type === 'optional';
      return { key, prefix: `${JSON.stringify(key)}:`, optional, node: compileNode(optional ? field.innerType : shape[key]) };
    });
  const known = new Set(fields.map((field) => field.key));
  const refined = refinements(def, true);
  return (value, depth) => {
    if (!isPlain(value) || depth >= maxFastDepth) return undefined;
    for (const key in value) if (!known.has(key)) return undefined;
    let out = '{';
    for (const field of fields) {
      const item = value[field.key];
      if (item === undefined) {
        if (field.optional) continue;
        return undefined;
      }
      const text = field.node(item, depth + 1);
      if (text === undefined) return undefined;
      out += `${out.length > 1 ? ',' : ''}${field.prefix}${text}`;
    }
    return refined(value) ? `${out}}` : undefined;
  };
};

function compileNode(schema: unknown): Node {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      const ok = stringNode(def);
      return (value) => (typeof value === 'string' && ok(value) ? quote(value) : undefined);
    }
    case 'number': {
      const ok = numberNode(def);
      return (value) => (typeof value === 'number' && ok(value) ? `${value}` : undefined);
    }
    case 'boolean':
      refinements(def, false);
      return (value) => (value === true ? 'true' : value === false ? 'false' : undefined);
    case 'enum': {
      const values = new Set(Object.values(def.entries as Record<string, unknown>));
      return (value) => (typeof value === 'string' && values.has(value) ? quote(value) : undefined);
    }
    case 'unknown':
      return jsonData;
    case 'union': {
      const options = (def.options as unknown[]).map(compileNode);
      return (value, depth) => {
        for (const option of options) {
          const text = option(value, depth);
          if (text !== undefined) return text;
        }
        return undefined;
      };
    }
    case 'array': {
      const element = compileNode(def.element);
      const { min, max } = lengthBounds(checksOf(def));
      return (value, depth) => {
        if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype || depth >= maxFastDepth) return undefined;
        if (value.length < min || value.length > max) return undefined;
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const item = element(value[i], depth + 1);
          if (item === undefined) return undefined;
          out += i === 0 ? item : `,${item}`;
        }
        return `${out}]`;
      };
    }
    case 'record': {
      const keyDef = defOf(def.keyType);
      if (keyDef.type !== 'string') throw new TypeError('fast path: only string record keys');
      refinements(def, false);
      const keyOk = stringNode(keyDef);
      const valueNode = compileNode(def.valueType);
      const undefinedOk = defOf(def.valueType).type === 'unknown';
      return (value, depth) =>
        depth >= maxFastDepth || typeof value !== 'object' || value === null
          ? undefined
          : sortedObject(value, depth, keyOk, valueNode, undefinedOk);
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
  return (value) => node(value, 0);
};

/** A compiled check of one object field's value (the envelope's ids and timestamp); absent passes when optional. */
export const compileFieldCheck = (schema: z.ZodType): ((value: unknown) => boolean) => {
  const def = defOf(schema);
  const optional = def.type === 'optional';
  const node = compileNode(optional ? def.innerType : schema);
  return (value) => (value === undefined ? optional : node(value, 0) !== undefined);
};
