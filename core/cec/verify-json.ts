import { jcs } from '../audit/chain.ts';

type Schema<T> = { safeParse(value: unknown): { success: true; data: T } | { success: false } };

/**
 * Parses a signed JSON entry (manifest, attestation): valid UTF-8 JSON of the expected shape whose bytes are
 * exactly its RFC 8785 form. Canonical bytes leave one reading: no duplicate keys (which JSON parsers resolve
 * differently), no whitespace or escapes that `jq -cS` would not reproduce. Returns the value or the reason.
 */
export const parseSignedJson = <T>(bytes: Buffer | undefined, name: string, schema: Schema<T>, canonical = true): T | string => {
  if (bytes === undefined) return `${name} is missing`;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return `${name} is not valid UTF-8 JSON`;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) return `${name} does not have the expected structure`;
  if (canonical) {
    let text: string;
    try {
      text = jcs(value);
    } catch {
      return `${name} holds values JSON cannot carry canonically`;
    }
    if (!Buffer.from(text, 'utf8').equals(bytes)) return `${name} is not in RFC 8785 canonical form (duplicate keys, spacing or escapes)`;
  }
  return parsed.data;
};
