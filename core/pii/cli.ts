import { readFile } from 'node:fs/promises';
import { openApp } from '../app.ts';
import { parseOptions } from '../cli/args.ts';
import { defineCommand } from '../cli/command.ts';
import { commandInfo } from '../cli/command-info.ts';
import { defaultDataDir } from '../config/data-dir.ts';
import { AppError } from '../errors.ts';
import type { CountryCode } from 'libphonenumber-js/max';
import { phoneRegionsSchema } from './phone-regions.ts';
import { scanText } from './scan-service.ts';

const { usage } = commandInfo.scan;

const readInput = async (source: string): Promise<string> => {
  if (source !== '-') return (await readFile(source)).toString('utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const parseThreshold = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const threshold = Number(value);
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1)
    throw new AppError('VALIDATION', '--threshold must be between 0 and 1');
  return threshold;
};

/** `--phone-regions GB,TR` through the same schema as the HTTP request's `phone_regions`. */
const parsePhoneRegions = (value: string | undefined): CountryCode[] | undefined => {
  if (value === undefined) return undefined;
  const parsed = phoneRegionsSchema.safeParse(value.split(',').map((code) => code.trim().toUpperCase()));
  if (!parsed.success) throw new AppError('VALIDATION', `--phone-regions: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
};

/**
 * `svc scan`: scans a file (or stdin) with the app's engine (Presidio too when configured) and prints the
 * redacted text, or the spec's JSON reply with --json. Always redacts, whatever settings.piiAction says: the exit
 * code carries the verdict (0 clean, 1 PII found, 2 error). The scan is recorded as evidence in the data dir.
 */
export const scanCommand = defineCommand('scan', async (argv) => {
  const { values, positionals } = parseOptions(argv, {
    json: { type: 'boolean' },
    language: { type: 'string' },
    entities: { type: 'string' },
    threshold: { type: 'string' },
    'phone-regions': { type: 'string' },
    explain: { type: 'boolean' },
    'data-dir': { type: 'string' },
  });
  const [source] = positionals;
  if (source === undefined || positionals.length !== 1) {
    process.stderr.write(`Usage: ${usage}\n`);
    return 2;
  }
  const app = await openApp({ dataDir: values['data-dir'] ?? defaultDataDir() });
  try {
    const text = await readInput(source);
    if (text === '') throw new AppError('VALIDATION', 'missing_field: text (the input is empty)');
    const threshold = parseThreshold(values.threshold);
    const phoneRegions = parsePhoneRegions(values['phone-regions']);
    const { result } = await scanText(app, {
      text,
      language: values.language ?? 'en',
      projectId: 'default',
      source: 'cli.scan',
      action: 'redact',
      returnExplanation: values.explain === true,
      ...(threshold === undefined ? {} : { scoreThreshold: threshold }),
      ...(phoneRegions === undefined ? {} : { phoneRegions }),
      ...(values.entities === undefined
        ? {}
        : {
            entities: values.entities
              .split(',')
              .map((e) => e.trim())
              .filter(Boolean),
          }),
    });
    process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : result.redacted_text);
    return result.detected ? 1 : 0;
  } catch (error) {
    const message = error instanceof AppError ? error.message : error instanceof Error ? error.message : String(error);
    process.stderr.write(`svc scan: ${message}\n`);
    return 2;
  } finally {
    await app.close();
  }
});
