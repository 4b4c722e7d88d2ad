import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML, type XMLValidationError } from 'xmllint-wasm';

/**
 * libxml2's xmllint compiled to WebAssembly (the `xmllint-wasm` package): the same parser and XSD validator as
 * the `xmllint` command, with nothing to install. Both checks reject with xmllint's messages.
 */
const failure = (what: string, errors: readonly XMLValidationError[]): Error =>
  new Error(`${what}:\n${errors.map((e) => e.rawMessage).join('\n')}`);

/** Resolves when `xml` is well-formed XML; rejects with the parser's errors otherwise. */
export const assertWellFormedXml = async (xml: string): Promise<void> => {
  const result = await validateXML({ xml: { fileName: 'document.xml', contents: xml }, normalization: 'format' });
  if (!result.valid) throw failure('not well-formed XML', result.errors);
};

/**
 * Resolves when `xml` is valid against `schemaFile`; every .xsd beside it is loaded too, so its
 * `schemaLocation` imports resolve offline (xmllint --nonet).
 */
export const assertValidXml = async (xml: string, schemaFile: string, schemaDir: string): Promise<void> => {
  const schemas = readdirSync(schemaDir)
    .filter((name) => name.endsWith('.xsd'))
    .map((fileName) => ({ fileName, contents: readFileSync(join(schemaDir, fileName), 'utf8') }));
  const main = schemas.find((s) => s.fileName === schemaFile);
  if (main === undefined) throw new Error(`${schemaFile} not in ${schemaDir}`);
  const result = await validateXML({
    xml: { fileName: 'document.xml', contents: xml },
    schema: main,
    preload: schemas.filter((s) => s !== main),
  });
  if (!result.valid) throw failure(`not valid against ${schemaFile}`, result.errors);
};
