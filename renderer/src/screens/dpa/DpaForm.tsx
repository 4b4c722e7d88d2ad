import type { FormEvent } from 'react';
import { ChipInput } from '../../components/ChipInput.tsx';
import { FieldError } from '../../components/FieldError.tsx';
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
      <div className="field">
        <label htmlFor="dpa-project">Project id</label>
        <input
          id="dpa-project"
          value={fields.projectId}
          onChange={(e) => set.projectId(e.target.value)}
          aria-invalid={shown('project_id') ? true : undefined}
        />
        <FieldError id="dpa-project-error" message={shown('project_id')} />
      </div>
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
      <div className="field">
        <label htmlFor="dpa-purpose">Purpose of the processing (optional)</label>
        <textarea
          id="dpa-purpose"
          rows={3}
          value={fields.purpose}
          onChange={(e) => set.purpose(e.target.value)}
          aria-invalid={shown('processing_purpose') ? true : undefined}
        />
        <FieldError id="dpa-purpose-error" message={shown('processing_purpose')} />
      </div>
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
      <div className="field">
        <label htmlFor="dpa-retention">Retention period (days)</label>
        <input
          id="dpa-retention"
          type="number"
          min={1}
          step={1}
          value={fields.retention}
          onChange={(e) => set.retention(e.target.value)}
          aria-invalid={shown('retention_period_days') ? true : undefined}
        />
        <FieldError id="dpa-retention-error" message={shown('retention_period_days')} />
      </div>
      <div className="field">
        <label htmlFor="dpa-law">Governing law (country code or text)</label>
        <input
          id="dpa-law"
          value={fields.law}
          onChange={(e) => set.law(e.target.value)}
          aria-invalid={shown('law_of_contract') ? true : undefined}
        />
        <FieldError id="dpa-law-error" message={shown('law_of_contract')} />
      </div>
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
