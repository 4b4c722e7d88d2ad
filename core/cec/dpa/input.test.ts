import { describe, expect, it } from 'vitest';
import { SFCECExportError } from '../../errors.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { generateDpa, parseDpaRequest } from './generate.ts';
import { listDpas } from './store.ts';
import { sampleRequest } from './test-support.ts';

const errorOf = (input: unknown): SFCECExportError => {
  try {
    parseDpaRequest(input);
  } catch (error) {
    if (error instanceof SFCECExportError) return error;
    throw error;
  }
  throw new Error('expected the input to be refused');
};

const withField = (path: string[], value: unknown): Record<string, unknown> => {
  const input = structuredClone(sampleRequest()) as Record<string, unknown>;
  let target = input;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = path.at(-1) as string;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return input;
};

describe('DPA input validation', () => {
  it.each([
    [['controller_details'], undefined, 'controller_details: is required'],
    [['processor_details'], 'ModelOps', 'processor_details: must be an object'],
    [['controller_details', 'name'], undefined, 'controller_details.name: is required'],
    [['controller_details', 'name'], '   ', 'controller_details.name: must not be empty'],
    [['processor_details', 'address'], '', 'processor_details.address: must not be empty'],
    [['processor_details', 'address'], 42, 'processor_details.address: must be a string'],
    [['controller_details', 'fax'], '123', 'controller_details: Unrecognized key: "fax"'],
    [['retention_period_days'], -5, 'retention_period_days: must be a positive number of days'],
    [['retention_period_days'], 0, 'retention_period_days: must be a positive number of days'],
    [['retention_period_days'], 1.5, 'retention_period_days: must be a whole number of days'],
    [['retention_period_days'], '90', 'retention_period_days: must be a number'],
    [['transfer_mechanisms'], ['carrier pigeon'], 'unknown transfer mechanism "carrier pigeon"'],
    [['transfer_mechanisms'], [], 'name at least one transfer mechanism'],
    [['transfer_mechanisms'], ['none_eea_only', 'bcr'], 'none_eea_only contradicts'],
    [['transfer_mechanisms'], 'bcr', 'transfer_mechanisms: must be a list of strings'],
    [['subject_categories'], [], 'list at least one category of data subjects'],
    [['subject_categories'], [''], 'subject_categories.0: must not be empty'],
    [['law_of_contract'], undefined, 'law_of_contract: is required'],
    [['controller_details', 'name'], 'x'.repeat(201), 'controller_details.name: must be at most 200 characters'],
    [['controller_details', 'name'], 'Acme\u0000Corp', 'controller_details.name: must not contain control characters'],
    [['controller_details', 'name'], 'Acme\nCorp', 'controller_details.name: must not contain control characters'],
    [['processor_details', 'address'], 'Dock\u001bRoad', 'processor_details.address: must not contain control characters'],
    [['processor_details', 'name'], 'Bad \uD800 surrogate', 'processor_details.name: must be valid Unicode text'],
    [['project_id'], '../etc', 'project_id: may contain only'],
  ])('refuses %j = %j with a clear message', (path, value, message) => {
    const error = errorOf(withField(path, value));
    expect(error.code).toBe('VALIDATION');
    expect(error.message).toContain(message);
  });

  it('accepts ids, display names and aliases of transfer mechanisms, in canonical order without duplicates', () => {
    const request = parseDpaRequest(
      withField(['transfer_mechanisms'], ['BCR', 'scc', 'Adequacy decision (Art. 45 GDPR)', 'scc_2021_914_module_2', 'SCC Module 3']),
    );
    expect(request.transfer_mechanisms).toEqual(['adequacy_decision', 'scc_2021_914_module_2', 'scc_2021_914_module_3', 'bcr']);
  });

  it('keeps multi-line addresses, RTL text and emoji, normalised to NFC', () => {
    const request = parseDpaRequest(withField(['controller_details'], { name: 'Cafe\u0301 שלום 😀', address: 'Line 1\r\nLine 2\tEnd' }));
    expect(request.controller_details).toEqual({ name: 'Café שלום 😀', address: 'Line 1\nLine 2 End' });
  });
});

describe.each(testBackends)('generateDpa on $name', (backend) => {
  const t = appPerTest(backend);
  it('generateDpa (spec signature) rejects with SFCECExportError when an argument is missing, and stores nothing', async () => {
    const { app } = t();
    await expect(
      generateDpa(
        app,
        'p1',
        { name: 'A', address: 'B' },
        { name: 'C' },
        {
          subjectCategories: ['customers'],
          transferMechanisms: ['none_eea_only'],
          retentionPeriodDays: 30,
          lawOfContract: 'IE',
        },
      ),
    ).rejects.toThrow(/processor_details\.address: is required/);
    await expect(generateDpa(app, 'p1', { name: 'A', address: 'B' }, { name: 'C', address: 'D' }, undefined as never)).rejects.toThrow(
      SFCECExportError,
    );
    expect(await listDpas(app)).toEqual([]);
  });
});
