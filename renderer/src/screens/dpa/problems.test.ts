import { describe, expect, it } from 'vitest';
import { dpaLimits, dpaRequestSchema } from '../../../../core/contracts/dpa.ts';
import { problemsOf } from './problems.ts';

const party = { name: 'Acme GmbH', address: 'Hauptstraße 1, Berlin', contact: '' };
const valid = {
  project_id: 'credit-model',
  controller_details: party,
  processor_details: { ...party, name: 'ModelOps Ltd' },
  subject_categories: ['customers'],
  transfer_mechanisms: ['none_eea_only'],
  retention_period_days: 90,
  law_of_contract: 'DE',
};
const problems = (input: unknown) => problemsOf(input, dpaRequestSchema.safeParse(input).error);

describe('DPA form problems (from the server schema)', () => {
  it('has none for a request the server accepts', () => {
    expect(problems(valid)).toEqual({});
  });

  it('asks for each empty required field in words, keyed by its wire path', () => {
    const empty = {
      ...valid,
      project_id: '',
      controller_details: { name: ' ', address: '', contact: '' },
      subject_categories: [],
      transfer_mechanisms: [],
      retention_period_days: Number.NaN,
      law_of_contract: '',
    };
    expect(problems(empty)).toEqual({
      project_id: 'Enter a project id.',
      'controller_details.name': "Enter the controller's name.",
      'controller_details.address': "Enter the controller's address.",
      subject_categories: 'Add at least one category of data subjects.',
      transfer_mechanisms: 'Choose at least one transfer mechanism.',
      retention_period_days: 'Enter a whole number of days, 1 or more.',
      law_of_contract: 'Enter the governing law (e.g. DE or Irish law).',
    });
  });

  it("shows the server's limits and rules, which the form did not check before", () => {
    const found = problems({
      ...valid,
      project_id: 'has spaces',
      controller_details: { ...party, name: 'x'.repeat(dpaLimits.name + 1) },
      processor_details: { ...party, contact: 'tab\u0007bell' },
      transfer_mechanisms: ['none_eea_only', 'bcr'],
      retention_period_days: 1.5,
      sub_processors: [{ name: 'Host', location: 'NL', activity: 'y'.repeat(dpaLimits.contact + 1) }],
    });
    expect(found).toEqual({
      project_id: 'May contain only letters, digits, ".", "_", ":" and "-".',
      'controller_details.name': `Must be at most ${dpaLimits.name} characters.`,
      'processor_details.contact': 'Must not contain control characters.',
      transfer_mechanisms: 'none_eea_only contradicts the other transfer mechanisms given.',
      retention_period_days: 'Must be a whole number of days.',
      'sub_processors.0.activity': `Must be at most ${dpaLimits.contact} characters.`,
    });
  });
});
