import { z } from 'zod';

/**
 * A TEXT column holding JSON, parsed and then checked by `schema`: rows enter the domain validated on both back
 * ends (JSON is kept as TEXT on SQLite and PostgreSQL alike). Unparsable text fails the row like a wrong type.
 */
export const jsonColumn = <T>(schema: z.ZodType<T>) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
