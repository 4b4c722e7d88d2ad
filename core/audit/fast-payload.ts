import type { z } from 'zod';
import {
  checksOf,
  codePoints,
  type Def,
  defOf,
  lengthBounds,
  numberCheckSource,
  passes,
  refinements,
  stringCheckSource,
} from './fast-checks.ts';

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
 * JCS writing are one walk that concatenates the text as it goes (V8 ropes: no parts array to join, which cost
 * more than the validation itself).
 */
declare global {
  // ES2024, present in Node 20; the project's TypeScript lib is older.
  interface String {
    isWellFormed(): boolean;
  }
}

export type FastEmit = (value: unknown) => string | undefined;
/** The JCS text of `value`, or undefined when the fast path cannot prove zod accepts it unchanged. */
type Node = (value: unknown, depth: number) => string | undefined;

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

/** True when JSON writes `text` as itself between quotes: no control character, `"`, `\\` or surrogate to escape or check. */
const plain = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff)) return false;
  }
  return true;
};

/**
 * The JSON string literal of a well-formed string (what JSON.stringify and JCS write); undefined for a lone
 * surrogate. Strings with nothing to escape (the usual case) skip the native call.
 */
const quote = (text: string): string | undefined => {
  if (plain(text)) return `"${text}"`;
  return text.isWellFormed() ? JSON.stringify(text) : undefined;
};

/** `[a,b]` of an array's items, each through `item`. */
const writeArray = (value: unknown[], depth: number, item: Node): string | undefined => {
  let out = '[';
  for (let i = 0; i < value.length; i++) {
    const text = item(value[i], depth + 1);
    if (text === undefined) return undefined;
    out += i > 0 ? `,${text}` : text;
  }
  return `${out}]`;
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
    case 'object':
      if (value === null) return 'null';
      if (depth >= maxFastDepth) return undefined;
      if (isPlainArray(value)) return writeArray(value, depth, jsonData);
      return writeSorted(value, depth);
    default:
      return undefined;
  }
};

/**
 * The own keys in UTF-16 code unit order (what `sort()` gives): an insertion sort in place for the few keys of
 * an evidence record, where `sort()` allocated more than the rest of the record's validation.
 */
const sortedKeys = (value: object): string[] => {
  const keys = Object.keys(value);
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[j] as string) > key; j--) keys[j + 1] = keys[j] as string;
    keys[j + 1] = key;
  }
  return keys;
};

/**
 * A free JSON object (z.unknown()) as `{"k":v,...}` with keys in UTF-16 order (JCS); an undefined value is left
 * out, as JSON does. Typed records are generated (Generator.record).
 */
const writeSorted = (value: object, depth: number): string | undefined => {
  // Symbol keys: JSON skips them, a zod record rejects them.
  if (!isPlain(value) || Object.getOwnPropertySymbols(value).length > 0) return undefined;
  let out = '{';
  for (const key of sortedKeys(value)) {
    if (awkwardKey(key)) return undefined;
    const raw = value[key];
    if (raw === undefined) continue;
    const name = quote(key);
    const text = name === undefined ? undefined : jsonData(raw, depth + 1);
    if (text === undefined) return undefined;
    out += out.length > 1 ? `,${name}:${text}` : `${name}:${text}`;
  }
  return `${out}}`;
};

/**
 * Generates the source of one validator function per object, array and union schema, with strings, numbers,
 * booleans and enums checked inline at each field: every property read and check then has its own call site
 * (V8 keeps them monomorphic), where a tree of closures made every site megamorphic. Only code this module
 * writes goes into the source: keys are JSON literals, checks and nested validators are passed in as values.
 */
class Generator {
  readonly values: unknown[] = [];
  readonly functions: string[] = [];
  /** The function already generated for a schema part (by its zod definition), so schemas that share it share one. */
  readonly generated = new Map<Def, string>();

  /** A name the generated code uses for a value from this side (a check, a set, a helper). */
  value(item: unknown): string {
    this.values.push(item);
    return `$${this.values.length - 1}`;
  }

  /** A generated function `(v, d) => string | undefined`; returns its name. */
  function(body: string): string {
    this.functions.push(body);
    return `f${this.functions.length - 1}`;
  }

  /** An expression giving the JCS text of the plain variable `x` at depth `d`, or undefined. */
  inline(schema: unknown, x: string, d: string): string {
    const def = defOf(schema);
    switch (def.type) {
      case 'string':
      case 'enum':
        return `(${this.stringTest(schema, x)} ? quote(${x}) : undefined)`;
      case 'number':
        return `(typeof ${x} === 'number' && ${numberCheckSource(def, x, (item) => this.value(item))} ? '' + ${x} : undefined)`;
      case 'boolean':
        refinements(def, false);
        return `(${x} === true ? 'true' : ${x} === false ? 'false' : undefined)`;
      case 'unknown':
        return `jsonData(${x}, ${d})`;
      default:
        return `${this.node(def)}(${x}, ${d})`;
    }
  }

  node(def: Def): string {
    let name = this.generated.get(def);
    if (name === undefined) {
      name = this.generate(def);
      this.generated.set(def, name);
    }
    return name;
  }

  generate(def: Def): string {
    switch (def.type) {
      case 'object':
        return this.object(def);
      case 'union': {
        const tries = (def.options as unknown[]).map((option) => `t = ${this.inline(option, 'v', 'd')}; if (t !== undefined) return t;`);
        return this.function(`let t; ${tries.join(' ')} return undefined;`);
      }
      case 'array': {
        const { min, max } = lengthBounds(checksOf(def));
        return this.function(
          `if (!isPlainArray(v) || d >= ${maxFastDepth} || v.length < ${min} || v.length > ${max}) return undefined;
          let o = '[', x, t;
          for (let i = 0; i < v.length; i++) {
            x = v[i]; t = ${this.inline(def.element, 'x', 'd + 1')};
            if (t === undefined) return undefined;
            o += i > 0 ? ',' + t : t;
          }
          return o + ']';`,
        );
      }
      case 'record':
        return this.record(def);
      default:
        throw new TypeError(`fast path: unsupported schema type ${def.type}`);
    }
  }

  /**
   * A strict object's JCS with two concatenations a field: the separator, key and colon are one literal chosen by
   * what came before (nothing: with the `{`; a closed value: `,`; a string left open: its closing quote and `,`),
   * and a string value that needs no escape goes in without its quotes (the opening one is in the literal, the
   * closing one in the next literal or the final `"}`). Quoting each string first made four pieces a field,
   * ~1.7 KB of concatenations a record that the flatten then walked (docs/decisions.md, "Ingest, sixth pass").
   * `s`: 0 nothing written yet, 1 the last value is closed, 2 the last value is a string without its closing quote.
   */
  object(def: Def): string {
    if (def.catchall === undefined || defOf(def.catchall).type !== 'never') throw new TypeError('fast path: only strict objects');
    const shape = def.shape as Record<string, unknown>;
    const keys = Object.keys(shape).sort();
    const fields = keys.map((key) => {
      const field = defOf(shape[key]);
      const optional = field.type === 'optional';
      const schema = optional ? field.innerType : shape[key];
      const name = JSON.stringify(key);
      const literal = (open: string): string =>
        `(s === 0 ? ${JSON.stringify(`{${name}:${open}`)} : s === 1 ? ${JSON.stringify(`,${name}:${open}`)} : ${JSON.stringify(`",${name}:${open}`)})`;
      return `x = v[${name}];
        if (x === undefined) { ${optional ? '' : 'return undefined;'} }
        else { ${this.writeValue(schema, literal('"'), literal(''))} }`;
    });
    const refined = this.value(refinements(def, true));
    const known = keys.map((key) => `case ${JSON.stringify(key)}:`).join(' ');
    return this.function(
      `if (!isPlain(v) || d >= ${maxFastDepth}) return undefined;
      for (const k in v) switch (k) { ${known} break; default: return undefined; }
      let o = '', s = 0, x, t;
      ${fields.join('\n')}
      return ${refined}(v) ? (s === 0 ? '{}' : s === 1 ? o + '}' : o + '"}') : undefined;`,
    );
  }

  /**
   * Code that checks `x` against `schema` and appends its JCS to `o` after the literal `open` (a string that needs
   * no escape, left without its closing quote: s = 2) or `closed` (any other value: s = 1).
   */
  writeValue(schema: unknown, open: string, closed: string): string {
    const test = this.stringTest(schema, 'x');
    if (test === undefined)
      return `t = ${this.inline(schema, 'x', 'd + 1')}; if (t === undefined) return undefined; o = o + ${closed} + t; s = 1;`;
    return `if (!(${test})) return undefined;
      if (plain(x)) { o = o + ${open} + x; s = 2; }
      else { t = quote(x); if (t === undefined) return undefined; o = o + ${closed} + t; s = 1; }`;
  }

  /**
   * A record (z.record of string keys) in JCS key order, with object()'s two-pieces-a-value writing: a key that needs
   * no escape is left open (`c`) and closed by the literal before its value. Undefined values are left out only for
   * z.unknown() values (as JSON does); a typed value rejects them. Symbol keys: JSON skips them, a zod record rejects
   * them.
   */
  record(def: Def): string {
    const keyDef = defOf(def.keyType);
    if (keyDef.type !== 'string') throw new TypeError('fast path: only string record keys');
    refinements(def, false);
    const undefinedOk = defOf(def.valueType).type === 'unknown';
    return this.function(
      `if (d >= ${maxFastDepth} || !isPlain(v) || Object.getOwnPropertySymbols(v).length > 0) return undefined;
      const ks = sortedKeys(v);
      let o = '', s = 0, c = false, k, x, t;
      for (let i = 0; i < ks.length; i++) {
        k = ks[i];
        if (awkwardKey(k) || !${stringCheckSource(keyDef, 'k', (item) => this.value(item))}) return undefined;
        x = v[k];
        if (x === undefined) { ${undefinedOk ? 'continue;' : 'return undefined;'} }
        if (plain(k)) { o = o + (s === 0 ? '{"' : s === 1 ? ',"' : '","') + k; c = true; }
        else { t = quote(k); if (t === undefined) return undefined; o = o + (s === 0 ? '{' : s === 1 ? ',' : '",') + t; c = false; }
        ${this.writeValue(def.valueType, `(c ? '":"' : ':"')`, `(c ? '":' : ':')`)}
      }
      return s === 0 ? '{}' : s === 1 ? o + '}' : o + '"}';`,
    );
  }

  /** For a string or enum schema, the expression that checks the string `x` (its JCS is quote(x)); else undefined. */
  stringTest(schema: unknown, x: string): string | undefined {
    const def = defOf(schema);
    if (def.type === 'string') return `typeof ${x} === 'string' && ${stringCheckSource(def, x, (item) => this.value(item))}`;
    if (def.type === 'enum')
      return `typeof ${x} === 'string' && ${this.value(new Set(Object.values(def.entries as Record<string, unknown>)))}.has(${x})`;
    return undefined;
  }

  /** Builds the functions; returns the ones named by `roots`, in order. */
  build(roots: readonly string[]): Node[] {
    const values = this.values.map((_, i) => `$${i} = values[${i}]`);
    const functions = this.functions.map((body, i) => `function f${i}(v, d) { ${body} }`);
    const source = `${values.length > 0 ? `const ${values.join(', ')};` : ''} ${functions.join('\n')} return [${roots.join(', ')}];`;
    const make = new Function(
      'values',
      'quote',
      'plain',
      'isPlain',
      'isPlainArray',
      'sortedKeys',
      'awkwardKey',
      'jsonData',
      'codePoints',
      'passes',
      source,
    );
    return make(this.values, quote, plain, isPlain, isPlainArray, sortedKeys, awkwardKey, jsonData, codePoints, passes) as Node[];
  }
}

/** The fast path of a compiled top-level validator (depth 0). */
const emitter =
  (node: Node): FastEmit =>
  (value) => {
    const text = node(value, 0);
    // Flattens the rope now (charCodeAt does): a retained rope of many small pieces costs the GC far more.
    if (text !== undefined) text.charCodeAt(0);
    return text;
  };

/**
 * Compiles zod schemas into their fast paths (see the module comment), in one generated module: a part that
 * several schemas share (the evidence schemas' `labels` and `extra` records) is one function, which V8 then
 * optimises once, after a sixth of the calls it needed per copy. Throws on schema parts it cannot prove.
 */
export const compileFastAll = <K extends string>(schemas: Readonly<Record<K, z.ZodType>>): Record<K, FastEmit> => {
  const generator = new Generator();
  const keys = Object.keys(schemas) as K[];
  const roots = keys.map((key) => generator.function(`return ${generator.inline(schemas[key], 'v', 'd')};`));
  const nodes = generator.build(roots);
  return Object.fromEntries(keys.map((key, i) => [key, emitter(nodes[i] as Node)])) as Record<K, FastEmit>;
};

/** Compiles one zod schema into its fast path (compileFastAll of one). */
export const compileFast = (schema: z.ZodType): FastEmit => compileFastAll({ schema }).schema;

/**
 * A compiled check of an object's fields (the envelope's ids and timestamp): true when every field's value passes
 * its schema, absent passing when the field is optional. Keys not in `shape` are not looked at. One generated
 * function for all the fields, where a closure per field cost a keyed read and a call each and had V8 optimise
 * four functions. A string's check writes no JCS: quote(v) is defined exactly when v needs no escape or is
 * well-formed.
 */
export const compileFieldChecks = (shape: Readonly<Record<string, z.ZodType>>): ((value: Record<string, unknown>) => boolean) => {
  const generator = new Generator();
  const fields = Object.entries(shape).map(([key, schema]) => {
    const def = defOf(schema);
    const optional = def.type === 'optional';
    const inner = optional ? def.innerType : schema;
    const test = generator.stringTest(inner, 'x');
    const passes = test === undefined ? `${generator.inline(inner, 'x', 'd')} !== undefined` : `${test} && (plain(x) || x.isWellFormed())`;
    return `x = v[${JSON.stringify(key)}];
      if (x === undefined) { ${optional ? '' : 'return undefined;'} }
      else if (!(${passes})) return undefined;`;
  });
  const [node] = generator.build([generator.function(`let x; ${fields.join('\n')} return '';`)]) as [Node];
  return (value) => node(value, 0) !== undefined;
};
