import { scimError, type ScimType } from '../errors.ts';

/** Lexical units of a SCIM filter or PATCH path (RFC 7644 3.4.2.2 and 3.5.2). */
export type Token =
  | { readonly kind: 'lparen' | 'rparen' | 'lbracket' | 'rbracket'; readonly at: number }
  | { readonly kind: 'word'; readonly text: string; readonly at: number }
  | { readonly kind: 'string'; readonly value: string; readonly at: number }
  | { readonly kind: 'number'; readonly value: number; readonly at: number };

export const maxExpressionLength = 4096;

const punctuation: Readonly<Record<string, Token['kind']>> = {
  '(': 'lparen',
  ')': 'rparen',
  '[': 'lbracket',
  ']': 'rbracket',
};

/** Characters of attribute paths, URNs, operators and literals: ALPHA DIGIT "-" "_" "$" ":" "." */
const isWordChar = (char: string): boolean => /[A-Za-z0-9_$:.-]/.test(char);
const numberPattern = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/;

/** Reads a JSON string literal starting at `start` (a double quote); returns its value and the index after it. */
const readString = (source: string, start: number, errorType: ScimType): { value: string; end: number } => {
  let index = start + 1;
  while (index < source.length) {
    const char = source[index];
    if (char === '\\') index += 2;
    else if (char === '"') {
      try {
        return { value: JSON.parse(source.slice(start, index + 1)) as string, end: index + 1 };
      } catch (error) {
        throw scimError(errorType, `Invalid string literal at position ${start}`, error);
      }
    } else index += 1;
  }
  throw scimError(errorType, `Unterminated string literal at position ${start}`);
};

/**
 * Splits an expression into tokens. Words keep their original case: attribute names and operators are matched
 * case-insensitively by the parser, and string literals keep theirs for caseExact comparisons.
 */
export const tokenize = (source: string, errorType: ScimType): Token[] => {
  if (source.length > maxExpressionLength) {
    throw scimError(errorType, `Expression longer than ${maxExpressionLength} characters`);
  }
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const char = source[index] as string;
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      index += 1;
      continue;
    }
    const punct = punctuation[char];
    if (punct !== undefined) {
      tokens.push({ kind: punct, at: index } as Token);
      index += 1;
      continue;
    }
    if (char === '"') {
      const { value, end } = readString(source, index, errorType);
      tokens.push({ kind: 'string', value, at: index });
      index = end;
      continue;
    }
    if (/[0-9-]/.test(char)) {
      const match = numberPattern.exec(source.slice(index));
      const next = match === null ? undefined : source[index + match[0].length];
      if (match !== null && (next === undefined || !isWordChar(next))) {
        tokens.push({ kind: 'number', value: Number(match[0]), at: index });
        index += match[0].length;
        continue;
      }
    }
    if (isWordChar(char)) {
      const start = index;
      while (index < source.length && isWordChar(source[index] as string)) index += 1;
      tokens.push({ kind: 'word', text: source.slice(start, index), at: start });
      continue;
    }
    throw scimError(errorType, `Unexpected character '${char}' at position ${index}`);
  }
  return tokens;
};
