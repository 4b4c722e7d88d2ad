import { parseOptions } from '../cli/args.ts';
import { defineCommand } from '../cli/command.ts';
import { commandInfo } from '../cli/command-info.ts';
import { withApp } from '../cli/with-app.ts';
import { defaultDataDir } from '../config/data-dir.ts';
import { SFCECClient } from './client.ts';
import { exportPublicKey } from './ed25519.ts';

const buildUsage = commandInfo.build.usage;

/** `svc public-key`: prints this install's Ed25519 public key and its RFC 7638 thumbprint, to publish. */
export const publicKeyCommand = defineCommand('public-key', async (argv) => {
  const { values } = parseOptions(argv, { json: { type: 'boolean' }, 'data-dir': { type: 'string' } });
  const key = await withApp(values['data-dir'] ?? defaultDataDir(), (app) => exportPublicKey(app));
  if (values.json) process.stdout.write(`${JSON.stringify({ ...key, thumbprint: key.kid }, null, 2)}\n`);
  else process.stdout.write(`${key.pem.trimEnd()}\nRFC 7638 thumbprint (SHA-256): ${key.kid}\n`);
  return 0;
});

/** `svc build`: builds a bundle from the data dir's evidence store. */
export const buildCommand = defineCommand('build', async (argv) => {
  const { values, positionals } = parseOptions(argv, {
    project: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    frameworks: { type: 'string' },
    out: { type: 'string' },
    'data-dir': { type: 'string' },
    json: { type: 'boolean' },
  });
  if (positionals.length > 0 || values.project === undefined || values.from === undefined || values.to === undefined) {
    process.stderr.write(`Usage: ${buildUsage}\n`);
    return 2;
  }
  const { project, from, to } = values;
  const frameworks = values.frameworks
    ?.split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  const result = await withApp(values['data-dir'] ?? defaultDataDir(), (app) =>
    new SFCECClient({ app }).buildBundle(project, [from, to], frameworks, {
      ...(values.out === undefined ? {} : { outputDir: values.out }),
      onProgress: (done, total) => process.stderr.isTTY && process.stderr.write(`\r\x1b[Kbuild: ${done}/${total} records`),
    }),
  );
  if (process.stderr.isTTY) process.stderr.write('\n');
  if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const total = Object.values(result.record_counts).reduce((a, b) => a + b, 0);
    process.stdout.write(`Built ${result.bundle_id} with ${total} records\n  ${result.zip_path}\n  ${result.hmac_manifest}\n`);
  }
  return 0;
});
