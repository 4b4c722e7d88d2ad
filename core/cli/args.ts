import { parseArgs } from 'node:util';

/** `--name value` / `--flag` options after the sub-command, with a clear error for unknown ones. */
export const parseOptions = <const T extends Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>>(
  argv: readonly string[],
  options: T,
) => parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
