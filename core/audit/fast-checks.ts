/**
 * The checks of zod schema parts as plain data and small monomorphic functions, for the compiled fast path
 * (fast-payload.ts). Each mirrors what zod's own check does (lengths in code points, bounds, formats,
 * overwrites, refinements) or throws at compile time for a check it does not know.
 */
export type Def = {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  [key: string]: unknown;
};
export type CheckDef = { check: string; [key: string]: unknown };
type AnySchema = { _zod: { def: Def } };

export const defOf = (schema: unknown): Def => (schema as AnySchema)._zod.def;
export const checksOf = (def: Def): CheckDef[] => (def.checks ?? []).map((check) => check._zod.def);

/** Code points of a well-formed string (zod measures lengths in code points). */
export const codePoints = (text: string): number => {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) count -= 1;
  }
  return count;
};

/** An array's min/max length checks as numbers. */
export const lengthBounds = (checks: CheckDef[]): { min: number; max: number } => {
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  for (const check of checks) {
    if (check.check === 'min_length') min = Math.max(min, check.minimum as number);
    else if (check.check === 'max_length') max = Math.min(max, check.maximum as number);
    else throw new TypeError(`fast path: unsupported length check ${check.check}`);
  }
  return { min, max };
};

/**
 * The source of an expression that is true exactly when the string `x` passes a string schema's checks, for the
 * generated validators (fast-payload.ts). `value` names a value the expression uses (a pattern, a transform, a
 * refinement). Lengths are in code points like zod's: the UTF-16 length bounds them (cp <= units <= 2 cp), so
 * most strings need no count. Straight-line code per field, where a shared closure looping over arrays of checks
 * made TurboFan inline and peel those loops into every field of every validator: the compilation then cost more
 * CPU than a 100k-record ingest spent validating (docs/decisions.md, "Ingest, another pass").
 */
export const stringCheckSource = (def: Def, x: string, value: (item: unknown) => string): string => {
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  const patterns: RegExp[] = [];
  const overwrites: ((text: string) => unknown)[] = [];
  const customs: ((text: string) => unknown)[] = [];
  // A string schema that is itself a format (z.iso.datetime()) carries its check on the def, not in `checks`.
  const own = def.check;
  const all: CheckDef[] = [...(typeof own === 'string' ? [{ ...def, check: own }] : []), ...checksOf(def)];
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
    } else if (check.check === 'custom' && typeof check.fn === 'function') customs.push(check.fn as (text: string) => unknown);
    else throw new TypeError(`fast path: unsupported string check ${check.check}`);
  }
  const tests = ['true'];
  if (!Number.isSafeInteger(min) || (max !== Number.POSITIVE_INFINITY && !Number.isSafeInteger(max)))
    throw new TypeError('fast path: non-integer length bound');
  if (min > 0) tests.push(`(${x}.length >= ${min} && (${x}.length >= ${2 * min} || codePoints(${x}) >= ${min}))`);
  if (max !== Number.POSITIVE_INFINITY) tests.push(`(${x}.length <= ${max} || codePoints(${x}) <= ${max})`);
  for (const overwrite of overwrites) tests.push(`${value(overwrite)}(${x}) === ${x}`);
  for (const pattern of patterns) tests.push(`${value(pattern)}.test(${x})`);
  for (const custom of customs) tests.push(`passes(${value(custom)}, ${x})`);
  return `(${tests.join(' && ')})`;
};

/** True when every refinement passes `value` (an indexed loop: no closure per call on the hot path). */
const allPass = (fns: readonly ((value: never) => unknown)[], value: unknown): boolean => {
  for (let i = 0; i < fns.length; i++) if (!passes(fns[i] as (value: never) => unknown, value)) return false;
  return true;
};

/** A zod refinement's verdict as zod reads it: true passes; anything else, or a throw, fails. */
export const passes = (refine: (value: never) => unknown, value: unknown): boolean => {
  try {
    return refine(value as never) === true;
  } catch {
    return false;
  }
};

/**
 * The source of an expression that is true exactly when the number `x` passes a number schema's checks: finite
 * always (zod 4 rejects NaN and infinities), a safe integer for z.int(), the tightest bounds (straight-line code,
 * as stringCheckSource).
 */
export const numberCheckSource = (def: Def, x: string, value: (item: unknown) => string): string => {
  if (def.format !== undefined && def.format !== 'safeint')
    throw new TypeError(`fast path: unsupported number format ${String(def.format)}`);
  const integer = def.format === 'safeint';
  let low = Number.NEGATIVE_INFINITY;
  let lowInclusive = true;
  let high = Number.POSITIVE_INFINITY;
  let highInclusive = true;
  for (const check of checksOf(def)) {
    if (typeof check.value !== 'number') throw new TypeError('fast path: non-numeric bound');
    const bound = check.value;
    const inclusive = check.inclusive === true;
    if (check.check === 'greater_than') {
      // The tighter bound wins; at equal bounds, exclusive wins.
      if (bound > low) [low, lowInclusive] = [bound, inclusive];
      else if (bound === low) lowInclusive &&= inclusive;
    } else if (check.check === 'less_than') {
      if (bound < high) [high, highInclusive] = [bound, inclusive];
      else if (bound === high) highInclusive &&= inclusive;
    } else throw new TypeError(`fast path: unsupported number check ${check.check}`);
  }
  const tests = [`Number.isFinite(${x})`];
  if (integer) tests.push(`Number.isSafeInteger(${x})`);
  // Bounds as values, not literals: no number formatting to get wrong.
  if (low !== Number.NEGATIVE_INFINITY) tests.push(`${x} ${lowInclusive ? '>=' : '>'} ${value(low)}`);
  if (high !== Number.POSITIVE_INFINITY) tests.push(`${x} ${highInclusive ? '<=' : '<'} ${value(high)}`);
  return `(${tests.join(' && ')})`;
};

/** Refinements (`.refine`): run on the input, which equals zod's output whenever the fast path accepts. */
export const refinements = (def: Def, allowed: boolean): ((value: unknown) => boolean) => {
  const fns = checksOf(def).map((check) => {
    if (!allowed || check.check !== 'custom' || typeof check.fn !== 'function')
      throw new TypeError(`fast path: unsupported check ${check.check}`);
    return check.fn as (value: unknown) => unknown;
  });
  return (value) => allPass(fns, value);
};
