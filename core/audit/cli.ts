import { createReadStream, statSync } from 'node:fs';
import { openApp } from '../app.ts';
import { defineCommand } from '../cli/command.ts';
import { commandInfo } from '../cli/command-info.ts';
import { parseOptions } from '../cli/args.ts';
import { defaultDataDir } from '../config/data-dir.ts';
import { AppError } from '../errors.ts';
import { importNdjson } from './import.ts';
import type { LineError } from './import.ts';

const { usage } = commandInfo.import;

/** Progress on stderr: one rewritten line on a terminal, a line every few seconds otherwise. */
const progressPrinter = (stream: NodeJS.WriteStream) => {
  let last = 0;
  return (done: number, total: number | null, message: string): void => {
    const now = Date.now();
    if (!stream.isTTY && now - last < 2000) return;
    last = now;
    const percent = total ? ` ${Math.floor((done / total) * 100)}%` : '';
    stream.write(stream.isTTY ? `\r\x1b[Kimport${percent}: ${message}` : `import${percent}: ${message}\n`);
  };
};

/** `svc import`: all-or-nothing NDJSON import straight into the data dir's evidence store. */
export const importCommand = defineCommand('import', async (argv) => {
  const { values, positionals } = parseOptions(argv, {
    project: { type: 'string' },
    'data-dir': { type: 'string' },
    json: { type: 'boolean' },
  });
  const [file] = positionals;
  if (file === undefined || positionals.length !== 1) {
    process.stderr.write(`Usage: ${usage}\n`);
    return 2;
  }
  const totalBytes = statSync(file).size;
  const app = await openApp({ dataDir: values['data-dir'] ?? defaultDataDir() });
  const started = performance.now();
  try {
    const result = await importNdjson(app, createReadStream(file, { highWaterMark: 256 * 1024 }), {
      totalBytes,
      onProgress: progressPrinter(process.stderr),
      ...(values.project === undefined ? {} : { defaultProjectId: values.project }),
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    const seconds = (performance.now() - started) / 1000;
    if (values.json) process.stdout.write(`${JSON.stringify({ ...result, seconds })}\n`);
    else {
      process.stdout.write(`Imported ${result.imported} records from ${result.lines} lines in ${seconds.toFixed(1)} s\n`);
      for (const p of result.projects) {
        process.stdout.write(`  ${p.project_id}: seq ${p.first_seq}..${p.last_seq}, head ${p.head_hash}\n`);
      }
    }
    return 0;
  } catch (error) {
    if (process.stderr.isTTY) process.stderr.write('\n');
    if (!(error instanceof AppError) || (error.code !== 'VALIDATION' && error.code !== 'CONFLICT')) throw error;
    const lines = (error.detail?.errors as LineError[] | undefined) ?? [];
    process.stderr.write(`svc import: ${error.message}\n`);
    for (const e of lines) process.stderr.write(`  line ${e.line}: ${e.message}\n`);
    return 1;
  } finally {
    await app.close();
  }
});
