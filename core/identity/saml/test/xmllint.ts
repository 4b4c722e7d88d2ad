import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const schemaDir = join(import.meta.dirname, 'schemas');

/** Validates SAML metadata against the OASIS schema with xmllint (offline); throws with its report when invalid. */
export const xmllintMetadata = (xml: string): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'sp-md-')), 'metadata.xml');
  writeFileSync(file, xml);
  return execFileSync('xmllint', ['--noout', '--nonet', '--schema', join(schemaDir, 'saml-schema-metadata-2.0.xsd'), file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
};
