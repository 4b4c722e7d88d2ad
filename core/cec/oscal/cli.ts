import { readFileSync, writeFileSync } from 'node:fs';
import { openApp } from '../../app.ts';
import { parseOptions } from '../../cli/args.ts';
import { defineCommand } from '../../cli/command.ts';
import { commandInfo } from '../../cli/command-info.ts';
import { defaultDataDir } from '../../config/data-dir.ts';
import { exportOscal } from './export.ts';

const { usage } = commandInfo.oscal;

/** `svc oscal`: a bundle as OSCAL 1.1.3 Assessment Results JSON (stdout, or -o FILE). Exit 0 written, 2 error. */
export const oscalCommand = defineCommand('oscal', async (argv) => {
  const { values, positionals } = parseOptions(argv, {
    output: { type: 'string', short: 'o' },
    key: { type: 'string' },
    'public-key': { type: 'string' },
    'data-dir': { type: 'string' },
  });
  const [file] = positionals;
  if (file === undefined || positionals.length !== 1 || (values.key !== undefined && values['public-key'] !== undefined)) {
    process.stderr.write(`Usage: ${usage}\n`);
    return 2;
  }
  const publicKey = values['public-key'] === undefined ? undefined : readFileSync(values['public-key'], 'utf8');
  // With an explicit key nothing from the data dir is needed (an auditor's machine), as for `svc verify`.
  const explicit = values.key !== undefined || publicKey !== undefined;
  const app = await openApp({ dataDir: explicit ? ':memory:' : (values['data-dir'] ?? defaultDataDir()) });
  try {
    const { document, overall_valid } = await exportOscal(app, file, {
      ...(values.key === undefined ? {} : { key: values.key }),
      ...(publicKey === undefined ? {} : { publicKeys: [publicKey] }),
    });
    const text = `${JSON.stringify(document, null, 2)}\n`;
    if (values.output === undefined) process.stdout.write(text);
    else {
      writeFileSync(values.output, text, { mode: 0o600 });
      process.stderr.write(`Wrote ${values.output}${overall_valid ? '' : ' (the bundle did NOT verify; the document says so)'}\n`);
    }
    return 0;
  } finally {
    await app.close();
  }
});
