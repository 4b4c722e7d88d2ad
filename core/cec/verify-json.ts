import { jcs } from '../audit/chain.ts';

/** Object members as written: the colons outside strings. */
const writtenMembers = (text: string): number => {
  let members = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x3a) members += 1;
  }
  return members;
};

/** Object members JSON.parse kept (iteratively: any depth). */
const parsedMembers = (value: unknown): number => {
  let members = 0;
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    const children = Array.isArray(item) ? item : Object.values(item);
    if (!Array.isArray(item)) members += children.length;
    for (const child of children) stack.push(child);
  }
  return members;
};

/**
 * Whether `text` repeats a key within an object: JSON.parse (its parse is `value`) keeps the last value, other
 * parsers the first or an error, so such a document has no one reading.
 */
export const hasDuplicateKeys = (text: string, value: unknown): boolean => parsedMembers(value) !== writtenMembers(text);

type Schema<T> = { safeParse(value: unknown): { success: true; data: T } | { success: false } };

/**
 * Parses a JSON entry of a bundle: valid UTF-8 JSON (no BOM) of the expected shape without a repeated key and,
 * when `canonical` (manifest, attestation), bytes exactly its RFC 8785 form, with no whitespace or escapes that
 * `jq -cS` would not reproduce. Returns the value or the reason.
 */
export const parseSignedJson = <T>(bytes: Buffer | undefined, name: string, schema: Schema<T>, canonical = true): T | string => {
  if (bytes === undefined) return `${name} is missing`;
  let value: unknown;
  let text: string;
  try {
    // The BOM is kept, so JSON.parse refuses it as Python's json does.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    value = JSON.parse(text);
  } catch {
    return `${name} is not valid UTF-8 JSON`;
  }
  if (hasDuplicateKeys(text, value)) return `${name} repeats a key (JSON parsers resolve it differently)`;
  const parsed = schema.safeParse(value);
  if (!parsed.success) return `${name} does not have the expected structure`;
  if (canonical) {
    let canonicalText: string;
    try {
      canonicalText = jcs(value);
    } catch {
      return `${name} holds values JSON cannot carry canonically`;
    }
    if (!Buffer.from(canonicalText, 'utf8').equals(bytes))
      return `${name} is not in RFC 8785 canonical form (spacing, escapes or key order)`;
  }
  return parsed.data;
};
