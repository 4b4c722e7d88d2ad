import type { FormEvent } from 'react';
import { ChipInput } from '../../components/ChipInput.tsx';
import { Field } from '../../components/Field.tsx';
import type { DpaOptions } from '../../state/dpa.ts';
import { PartyFields } from './PartyFields.tsx';
import { SubProcessorsInput } from './SubProcessorsInput.tsx';
import { TransferMechanisms } from './TransferMechanisms.tsx';
import type { useDpaForm } from './useDpaForm.ts';

/** Keys of problems the form shows beside a field; any other (e.g. `sub_processors.0.name`) goes to its section. */
const subProcessorProblem = (problems: Record<string, string | undefined>): string | undefined =>
  Object.entries(problems).find(([key]) => key.startsWith('sub_processors'))?.[1];

/** The form of the DPA screen; problems show once the user has tried to generate (`attempted`). */
export const DpaForm = ({
  form,
  options,
  attempted,
  busy,
  onSubmit,
}: {
  form: ReturnType<typeof useDpaForm>;
  options: DpaOptions | null;
  attempted: boolean;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
}) => {
  const { fields, set, problems, valid } = form;
  const shown = (key: string) => (attempted ? problems[key] : undefined);
  const count = Object.keys(problems).length;
  return (
    <form onSubmit={onSubmit} className="stack dpa-form" noValidate aria-label="DPA details">
      <Field
        id="dpa-project"
        label="Project id"
        problem={shown('project_id')}
        control={(props) => <input {...props} value={fields.projectId} onChange={(e) => set.projectId(e.target.value)} />}
      />
      <PartyFields party="controller" value={fields.controller} onChange={set.controller} problems={problems} show={attempted} />
      <PartyFields party="processor" value={fields.processor} onChange={set.processor} problems={problems} show={attempted} />
      <ChipInput
        id="dpa-category"
        legend="Categories of data subjects"
        inputLabel="New category of data subjects"
        placeholder="e.g. customers"
        values={fields.categories}
        onChange={set.categories}
        error={shown('subject_categories')}
      />
      <ChipInput
        id="dpa-data-type"
        legend="Types of personal data (optional)"
        inputLabel="New type of personal data"
        placeholder="e.g. contact details"
        values={fields.dataTypes}
        onChange={set.dataTypes}
        error={shown('data_categories')}
      />
      <Field
        id="dpa-purpose"
        label="Purpose of the processing (optional)"
        problem={shown('processing_purpose')}
        control={(props) => <textarea {...props} rows={3} value={fields.purpose} onChange={(e) => set.purpose(e.target.value)} />}
      />
      <SubProcessorsInput
        values={fields.subProcessors}
        onChange={set.subProcessors}
        error={attempted ? subProcessorProblem(problems) : undefined}
      />
      <TransferMechanisms
        options={options?.transfer_mechanisms ?? []}
        values={fields.mechanisms}
        onChange={set.mechanisms}
        error={shown('transfer_mechanisms')}
      />
      <Field
        id="dpa-retention"
        label="Retention period (days)"
        problem={shown('retention_period_days')}
        control={(props) => (
          <input {...props} type="number" min={1} step={1} value={fields.retention} onChange={(e) => set.retention(e.target.value)} />
        )}
      />
      <Field
        id="dpa-law"
        label="Governing law (country code or text)"
        problem={shown('law_of_contract')}
        control={(props) => <input {...props} value={fields.law} onChange={(e) => set.law(e.target.value)} />}
      />
      {attempted && !valid ? (
        <div role="alert" className="alert">
          Please fix the {count === 1 ? 'field' : `${count} fields`} marked above.
        </div>
      ) : null}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Generating…' : 'Generate DPA'}
        </button>
      </div>
    </form>
  );
};
