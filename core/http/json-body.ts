import type { FastifyInstance } from 'fastify';
import { maxJsonDepth } from '../audit/json-depth.ts';
import { AppError } from '../errors.ts';

/**
 * Deeper bodies are refused before parsing (parsers recurse). Deep enough for the deepest evidence payload the
 * store accepts (maxJsonDepth) inside audit.append's envelope, `{"records": [{"payload": ...}]}`: three levels.
 */
export const maxBodyDepth = maxJsonDepth + 3;

/** Counts nesting outside strings in one linear pass; returns false as soon as the limit is passed. */
export const jsonDepthWithin = (text: string, limit: number): boolean => {
  // Depth never exceeds the number of opening brackets (in strings or not), which indexOf counts at memchr
  // speed: the character loop below cost a 1 KB scan request four times its JSON.parse.
  if (bracketsAtMost(text, limit)) return true;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return false;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return true;
};

/** Whether `text` holds at most `limit` opening brackets (`{` and `[`) in all. */
const bracketsAtMost = (text: string, limit: number): boolean => {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) if (++count > limit) return false;
  }
  return true;
};

/** A body the parser refused; SCIM routes render it with `scimType: invalidSyntax`, others ignore that detail. */
const syntaxError = (message: string): AppError => new AppError('VALIDATION', message, { detail: { scimType: 'invalidSyntax' } });

const dropProto = (key: string, value: unknown): unknown => (key === '__proto__' ? undefined : value);

/**
 * A JSON body's value: undefined for an empty body (so a missing field is reported as missing, not as bad JSON);
 * malformed or too deeply nested JSON is a 400 with a clear message; `__proto__` keys are dropped. JSON can only
 * spell that key literally or with a `\u` escape, so a text with neither skips the reviver, which halves the
 * parse.
 */
export const parseJsonBody = (text: string): unknown => {
  if (text.trim() === '') return undefined;
  if (!jsonDepthWithin(text, maxBodyDepth)) throw syntaxError(`JSON nested deeper than ${maxBodyDepth} levels`);
  const mayHoldProto = text.includes('__proto__') || text.includes('\\u');
  try {
    return mayHoldProto ? JSON.parse(text, dropProto) : JSON.parse(text);
  } catch {
    throw syntaxError('Malformed JSON body');
  }
};

/**
 * JSON bodies (`application/json`, and `application/scim+json` for SCIM), parsed by parseJsonBody. Runs only
 * after the pipeline let the request in.
 */
export const registerJsonParser = (fastify: FastifyInstance): void => {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(['application/json', 'application/scim+json'], { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
};
