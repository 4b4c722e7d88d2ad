/**
 * Static safety rule for user-supplied regexes (ad-hoc and custom recognizers). Rejected, with a
 * VALIDATION error naming the reason:
 *  - backreferences (\1…\9, \k<name>) and lookaround ((?=, (?!, (?<=, (?<!);
 *  - nested repetition: a group repeated without bound (*, +, {n,}) that contains a quantifier or an
 *    alternation, e.g. (a+)+, (a|ab)*, (\w+\s?)*;
 *  - a group repeated a bounded number of times ({n}, {n,m} with n or m > 1) that contains an unbounded
 *    quantifier, e.g. (\d+-){3} (an optional group, `(...)?`, may contain anything else allowed);
 *  - patterns longer than 1000 characters, or that JavaScript cannot compile.
 * What remains has star height one with bounded inner counts, which is at most polynomial; the runtime
 * guard (guarded-regex.ts) then stops anything slow with an error instead of a silent skip.
 */
import { AppError } from '../errors.ts';

export const MAX_USER_REGEX_LENGTH = 1000;

type GroupInfo = { quantified: boolean; unbounded: boolean; alternation: boolean };

const reject = (source: string, reason: string): never => {
  throw new AppError('VALIDATION', `unsafe regex rejected (${reason}): ${source.slice(0, 80)}`);
};

/** Reads a quantifier at `i`; returns its length and whether it is unbounded (0 when none). */
const quantifierAt = (src: string, i: number): { length: number; unbounded: boolean; max: number } => {
  const c = src[i];
  let length = 0;
  let unbounded = false;
  let max = 1;
  if (c === '*' || c === '+') {
    length = 1;
    unbounded = true;
  } else if (c === '?') length = 1;
  else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i, i + 24));
    if (m) {
      length = m[0].length;
      unbounded = m[2] !== undefined && (m[3] === undefined || m[3] === '');
      max = Number(m[3] || m[1]);
    }
  }
  if (length > 0 && (src[i + length] === '?' || src[i + length] === '+')) length++;
  return { length, unbounded, max };
};

/** Throws AppError('VALIDATION') when `source` breaks the rule above; returns the compiled regex otherwise. */
export const assertSafeRegex = (source: string, flags: string): RegExp => {
  if (source.length > MAX_USER_REGEX_LENGTH) reject(source, 'longer than 1000 characters');
  let compiled: RegExp;
  try {
    compiled = new RegExp(source, flags);
  } catch (error) {
    throw new AppError('VALIDATION', `invalid regex: ${(error as Error).message}`, { cause: error });
  }
  const stack: GroupInfo[] = [{ quantified: false, unbounded: false, alternation: false }];
  const top = (): GroupInfo => stack[stack.length - 1] as GroupInfo;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    let atomEnd = i + 1;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') reject(source, 'backreference');
      atomEnd = i + 2;
    } else if (c === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      atomEnd = j + 1;
    } else if (c === '(') {
      if (/^\(\?<?[=!]/.test(source.slice(i, i + 4))) reject(source, 'lookaround');
      stack.push({ quantified: false, unbounded: false, alternation: false });
      continue;
    } else if (c === ')') {
      const group = stack.pop();
      if (!group || stack.length === 0) reject(source, 'unbalanced parenthesis');
      const q = quantifierAt(source, i + 1);
      if (q.length > 0 && group) {
        if (q.unbounded && (group.quantified || group.alternation)) reject(source, 'nested quantifier');
        if (!q.unbounded && q.max > 1 && group.unbounded) reject(source, 'unbounded quantifier inside a repeated group');
        top().quantified = true;
        top().unbounded ||= q.unbounded;
        i += q.length;
      }
      if (group) {
        top().quantified ||= group.quantified;
        top().unbounded ||= group.unbounded;
      }
      continue;
    } else if (c === '|') {
      top().alternation = true;
      continue;
    }
    const q = quantifierAt(source, atomEnd);
    if (q.length > 0) {
      top().quantified = true;
      top().unbounded ||= q.unbounded;
    }
    i = atomEnd + q.length - 1;
  }
  return compiled;
};
