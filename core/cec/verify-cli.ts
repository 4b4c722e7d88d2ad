import { readFileSync, statSync } from 'node:fs';
import { parseOptions } from '../cli/args.ts';
import { defineCommand } from '../cli/command.ts';
import { commandInfo } from '../cli/command-info.ts';
import { AppError } from '../errors.ts';
import { type HeldAnchors, maxHeldAnchorsBytes, parseHeldAnchors } from './held-anchors.ts';
import { isBundleUrl } from './remote-bundle.ts';
import type { BundleVerificationResult } from './types.ts';
import { type VerifyBundleOptions, verifyBundleWithGivenTrust, verifyBundleWithTrust } from './verify-bundle.ts';

// Loaded on its own by `svc verify` (core/cli/commands.ts): imports only what verification needs, so the command
// starts without the builder, the PII engine, pdfkit or the HTTP server (core/cec/verify-cli.test.ts checks it).

const verifyUsage = commandInfo.verify.usage;

const printVerification = (result: BundleVerificationResult): void => {
  const out: string[] = [`Bundle ${result.bundle_id || '(unknown)'}: ${result.overall_valid ? 'VALID' : 'INVALID'}`];
  for (const check of result.checks) {
    out.push(`  ${check.status.toUpperCase().padEnd(7)} ${check.name.padEnd(9)} ${check.summary}`);
    for (const error of check.errors.slice(check.summary === check.errors[0] ? 1 : 0)) out.push(`          ${error}`);
  }
  const stamp = result.timestamp;
  if (stamp?.kind === 'rfc3161')
    out.push(`  timestamp: ${stamp.gen_time ?? '?'} by ${stamp.tsa ?? '?'} (serial ${stamp.serial ?? '?'}, policy ${stamp.policy ?? '?'})`);
  if (stamp?.kind === 'stub') out.push('  note: the timestamp is a stub (no TSA was configured); it attests no time');
  if (result.anchors !== null) {
    const { lag, anchors } = result.anchors;
    const secs = (value: number | null) => (value === null ? 'n/a' : `${Math.round(value)} s`);
    out.push(
      `  anchors: ${anchors.map((a) => `seq ${a.seq} ${a.kind}${a.time ? ` at ${a.time}` : ''}${a.tsa ? ` by ${a.tsa}` : ''}`).join('; ') || 'none'}`,
    );
    out.push(
      `  anchoring lag: max ${secs(lag.max_seconds)}, p50 ${secs(lag.p50_seconds)}, p95 ${secs(lag.p95_seconds)}; ${lag.unanchored} of ${lag.records} records with no anchor after them`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
};

/** Reads files named on the command line; exit 2 (usage error) when one is unreadable. */
const readFiles = (paths: readonly string[] | undefined): string[] => (paths ?? []).map((path) => readFileSync(path, 'utf8'));

/** `--anchors FILE`: the auditor's saved `svc anchors export` (NDJSON or JSON). @throws AppError VALIDATION. */
const readHeldAnchors = (path: string): HeldAnchors => {
  let text: string;
  try {
    if (statSync(path).size > maxHeldAnchorsBytes) throw new AppError('VALIDATION', `${path} is larger than ${maxHeldAnchorsBytes} bytes`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('VALIDATION', `Cannot read the anchors file: ${(error as Error).message}`);
  }
  return parseHeldAnchors(text, path);
};

/**
 * Verification on an app over `dataDir` (default: the user's data dir), its trust list and secrets the defaults
 * of what `trust` leaves open; a URL is downloaded first.
 */
const verifyWithApp = async (dataDir: string | undefined, file: string, trust: VerifyBundleOptions): Promise<BundleVerificationResult> => {
  // Loaded only here: an explicit verification of a local file never loads the storage stack.
  const [{ withApp }, { withBundleFile }, { defaultDataDir }] = await Promise.all([
    import('../cli/with-app.ts'),
    import('./remote-bundle.ts'),
    import('../config/data-dir.ts'),
  ]);
  return withApp(dataDir ?? defaultDataDir(), (app) => withBundleFile(app, file, (path) => verifyBundleWithTrust(app, path, trust)));
};

/** `svc verify`: exit 0 valid, 1 invalid, 2 error (missing file, bad arguments, not a ZIP). */
export const verifyCommand = defineCommand('verify', async (argv) => {
  const { values, positionals } = parseOptions(argv, {
    key: { type: 'string' },
    'public-key': { type: 'string', multiple: true },
    'tsa-ca': { type: 'string', multiple: true },
    anchors: { type: 'string' },
    json: { type: 'boolean' },
    'data-dir': { type: 'string' },
  });
  const [file] = positionals;
  if (file === undefined || positionals.length !== 1) {
    process.stderr.write(`Usage: ${verifyUsage}\n`);
    return 2;
  }
  let publicKeys: string[];
  let tsaCaPem: string[];
  try {
    publicKeys = readFiles(values['public-key']);
    tsaCaPem = readFiles(values['tsa-ca']);
  } catch (error) {
    process.stderr.write(`Cannot read a key or certificate file: ${(error as Error).message}\n`);
    return 2;
  }
  // Malformed, empty or mixed-project anchors are a usage error (exit 2), before any verification.
  const heldAnchors = values.anchors === undefined ? undefined : readHeldAnchors(values.anchors);
  const trust = {
    ...(values.key === undefined ? {} : { key: values.key }),
    ...(publicKeys.length === 0 ? {} : { publicKeys }),
    ...(tsaCaPem.length === 0 ? {} : { tsaCaPem }),
    ...(heldAnchors === undefined ? {} : { heldAnchors }),
  };
  // With an explicit trust input nothing from the data dir is used: an auditor's machine stays untouched, and a
  // local file is verified without opening any app (the storage stack is most of the command's start-up).
  const explicit = values.key !== undefined || publicKeys.length > 0;
  const result =
    explicit && !isBundleUrl(file)
      ? await verifyBundleWithGivenTrust(file, trust, process.env)
      : await verifyWithApp(explicit ? ':memory:' : values['data-dir'], file, trust);
  if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else printVerification(result);
  return result.overall_valid ? 0 : 1;
});
