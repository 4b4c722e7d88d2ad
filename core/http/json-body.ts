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

/** A body the parser refused; SCIM routes render it with `scimType: invalidSyntax`, others ignore that detail. */
const syntaxError = (message: string): AppError => new AppError('VALIDATION', message, { detail: { scimType: 'invalidSyntax' } });

/**
 * JSON bodies (`application/json`, and `application/scim+json` for SCIM): an empty body is "no input" (so a
 * missing field is reported as missing, not as bad JSON); malformed or too deeply nested JSON is a 400 with a
 * clear message; `__proto__` keys are dropped by the reviver. Runs only after the pipeline let the request in.
 */
export const registerJsonParser = (fastify: FastifyInstance): void => {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(['application/json', 'application/scim+json'], { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    if (!jsonDepthWithin(text, maxBodyDepth)) return done(syntaxError(`JSON nested deeper than ${maxBodyDepth} levels`), undefined);
    try {
      done(
        null,
        JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value)),
      );
    } catch {
      done(syntaxError('Malformed JSON body'), undefined);
    }
  });
};
