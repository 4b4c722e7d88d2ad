import { readFile, writeFile } from 'node:fs/promises';
import { openApp } from '../../app.ts';
import { parseOptions } from '../../cli/args.ts';
import { defineCommand } from '../../cli/command.ts';
import { commandInfo } from '../../cli/command-info.ts';
import { defaultDataDir } from '../../config/data-dir.ts';
import { AppError } from '../../errors.ts';
import { type ExportFormat, exportDpa, exportFormats } from './export.ts';
import { generateDpaFromRequest, parseDpaRequest } from './generate.ts';

const { usage } = commandInfo.dpa;

const isFormat = (value: string): value is ExportFormat => (exportFormats as readonly string[]).includes(value);

const readJson = async (path: string): Promise<unknown> => {
  const text = path === '-' ? await readStdin() : (await readFile(path)).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppError('VALIDATION', `${path === '-' ? 'stdin' : path} is not valid JSON`, { cause: error });
  }
};

const optionSpec = {
  json: { type: 'string' },
  format: { type: 'string' },
  output: { type: 'string', short: 'o' },
  'data-dir': { type: 'string' },
} as const;

/** The parsed options, or the parse error (unknown option, missing value) to print. */
const readOptions = (argv: readonly string[]) => {
  try {
    return parseOptions(argv, optionSpec).values;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
};

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * `svc dpa`: generates a DPA from a JSON file shaped like the body of `POST /v1/risk/dpa`, stores it in the data
 * dir and writes one export. Prints the document id; exit 0 on success, 2 on any error.
 */
export const dpaCommand = defineCommand('dpa', async (argv) => {
  const values = readOptions(argv);
  if (values instanceof Error) {
    process.stderr.write(`svc dpa: ${values.message}\nUsage: ${usage}\n`);
    return 2;
  }
  const { json, format = 'pdf', output } = values;
  if (json === undefined || output === undefined || !isFormat(format)) {
    process.stderr.write(`Usage: ${usage}\n`);
    return 2;
  }
  const app = await openApp({ dataDir: values['data-dir'] ?? defaultDataDir() });
  try {
    const document = await generateDpaFromRequest(app, parseDpaRequest(await readJson(json)));
    const file = await exportDpa(app, document, format);
    await writeFile(output, file.data);
    process.stdout.write(`${document.document_id}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`svc dpa: ${message}\n`);
    return 2;
  } finally {
    await app.close();
  }
});
