import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

let validator: ValidateFunction | undefined;

/** NIST's OSCAL 1.1.3 complete JSON schema (draft-07), compiled once with Ajv and the standard formats. */
export const oscalValidator = (): ValidateFunction => {
  if (validator === undefined) {
    const schema = JSON.parse(readFileSync(new URL('./oscal_complete_schema-1.1.3.json', import.meta.url), 'utf8')) as object;
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    validator = ajv.compile(schema);
  }
  return validator;
};

/** Schema errors of a document as readable lines (empty when it validates). */
export const oscalErrors = (document: unknown): string[] => {
  const validate = oscalValidator();
  return validate(document)
    ? []
    : (validate.errors ?? []).slice(0, 20).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
};
