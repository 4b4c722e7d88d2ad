import { join } from 'node:path';
import { assertValidXml } from '../../../test-support/xmllint.ts';

const schemaDir = join(import.meta.dirname, 'schemas');

/**
 * Validates SAML metadata against the OASIS schema with libxml2 (xmllint compiled to WebAssembly, offline);
 * rejects with its report when invalid.
 */
export const xmllintMetadata = (xml: string): Promise<void> => assertValidXml(xml, 'saml-schema-metadata-2.0.xsd', schemaDir);
