import type { z } from 'zod';

/** Problems of the form, keyed by the wire path of the field (`controller_details.name`, `retention_period_days`). */
export type Problems = Partial<Record<string, string>>;

/** What to ask for when a required field is left empty; any other problem shows the schema's own message. */
const whenEmpty: Problems = {
  project_id: 'Enter a project id.',
  'controller_details.name': "Enter the controller's name.",
  'controller_details.address': "Enter the controller's address.",
  'processor_details.name': "Enter the processor's name.",
  'processor_details.address': "Enter the processor's address.",
  subject_categories: 'Add at least one category of data subjects.',
  transfer_mechanisms: 'Choose at least one transfer mechanism.',
  retention_period_days: 'Enter a whole number of days, 1 or more.',
  law_of_contract: 'Enter the governing law (e.g. DE or Irish law).',
};

// A blank number field arrives as NaN (see useDpaForm).
const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  Number.isNaN(value) ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );

// Capitalised as a sentence unless it starts with an API value (e.g. none_eea_only), which keeps its spelling.
const sentence = (message: string): string => {
  const capital = /^[a-z]+\b(?!_)/.test(message) ? `${message.charAt(0).toUpperCase()}${message.slice(1)}` : message;
  return capital.endsWith('.') ? capital : `${capital}.`;
};

/**
 * The field-by-field problems of a request, from the server's own schema (same rules, limits and messages):
 * the first issue of each field, worded as a request when the field is empty.
 */
export const problemsOf = (input: unknown, error: z.ZodError | undefined): Problems => {
  const problems: Problems = {};
  for (const issue of error?.issues ?? []) {
    const key = issue.path.map(String).join('.');
    if (problems[key] !== undefined) continue;
    const hint = whenEmpty[key];
    problems[key] = hint !== undefined && isEmpty(valueAt(input, issue.path)) ? hint : sentence(issue.message);
  }
  return problems;
};
