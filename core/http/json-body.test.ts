import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { jsonDepthWithin, maxBodyDepth, parseJsonBody } from './json-body.ts';

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const refusal = (text: string): string => {
  try {
    parseJsonBody(text);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).message;
  }
  throw new Error('parsed');
};

describe('JSON bodies', () => {
  it('counts nesting outside strings, whether the text has few brackets or many', () => {
    expect(jsonDepthWithin(nested(maxBodyDepth), maxBodyDepth)).toBe(true);
    expect(jsonDepthWithin(nested(maxBodyDepth + 1), maxBodyDepth)).toBe(false);
    // Many brackets, shallow: 200 sibling objects, and brackets inside a string (escaped quote included).
    expect(jsonDepthWithin(JSON.stringify(Array.from({ length: 200 }, () => ({ a: [1] }))), maxBodyDepth)).toBe(true);
    expect(jsonDepthWithin(JSON.stringify({ text: `"${'['.repeat(500)}` }), maxBodyDepth)).toBe(true);
    // Deep, with string brackets before it that a naive count would also see.
    expect(jsonDepthWithin(`{"a":"{{{{","b":${nested(maxBodyDepth + 1)}}`, maxBodyDepth)).toBe(false);
  });

  it('refuses deep and malformed JSON, and reads an empty body as no input', () => {
    expect(refusal(nested(maxBodyDepth + 1))).toBe(`JSON nested deeper than ${maxBodyDepth} levels`);
    expect(parseJsonBody(nested(maxBodyDepth))).toBeInstanceOf(Array);
    expect(refusal('{"tier": ')).toBe('Malformed JSON body');
    expect(parseJsonBody('  \n')).toBeUndefined();
  });

  it('drops __proto__ keys however JSON spells them, and keeps everything else', () => {
    for (const key of ['__proto__', '\\u005f_proto__', '__pr\\u006fto__', '\\u005F\\u005Fproto\\u005f\\u005f']) {
      const value = parseJsonBody(`{"a":1,"${key}":{"polluted":true},"b":{"${key}":[1]}}`) as Record<string, unknown>;
      expect(Object.keys(value)).toEqual(['a', 'b']);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value.b as object)).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
    expect(parseJsonBody('{"text":"__proto__ is a word","note":"caf\\u00e9"}')).toEqual({ text: '__proto__ is a word', note: 'café' });
    expect(parseJsonBody('{"text":"plain \\"quoted\\" text\\n"}')).toEqual({ text: 'plain "quoted" text\n' });
  });
});
