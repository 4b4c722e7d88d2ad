import { useState } from 'react';
import { DataTable } from '../../components/DataTable.tsx';
import { FieldError } from '../../components/FieldError.tsx';
import type { SubProcessor } from './useDpaForm.ts';

const emptySub: SubProcessor = { name: '', location: '', activity: '' };
const subKey = (sub: SubProcessor): string => `${sub.name}\u0000${sub.location}\u0000${sub.activity}`;

/** Annex III: sub-processors authorised at signature, added one row at a time. */
export const SubProcessorsInput = ({
  values,
  onChange,
  error,
}: {
  values: readonly SubProcessor[];
  onChange: (values: SubProcessor[]) => void;
  /** A problem of the list or of one entry (e.g. a name over the length limit). */
  error: string | undefined;
}) => {
  const [draft, setDraft] = useState<SubProcessor>(emptySub);
  const complete =
    draft.name.trim() !== '' &&
    draft.location.trim() !== '' &&
    draft.activity.trim() !== '' &&
    !values.some((sub) => subKey(sub) === subKey(draft));
  const add = (): void => {
    if (!complete) return;
    onChange([...values, draft]);
    setDraft(emptySub);
  };
  const field = (key: keyof SubProcessor, label: string) => (
    <div className="field">
      <label htmlFor={`dpa-sub-${key}`}>{label}</label>
      <input id={`dpa-sub-${key}`} value={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.value })} />
    </div>
  );
  return (
    <fieldset>
      <legend>Sub-processors (Annex III, optional)</legend>
      {values.length > 0 ? (
        <DataTable
          label="Authorised sub-processors"
          className="dpa-table"
          rows={values}
          rowKey={subKey}
          columns={[
            { header: 'Name', cell: (sub) => sub.name },
            { header: 'Location', cell: (sub) => sub.location },
            { header: 'Activity', cell: (sub) => sub.activity },
            {
              header: 'Remove',
              hideHeader: true,
              cell: (sub) => (
                <button
                  type="button"
                  aria-label={`Remove sub-processor ${sub.name}`}
                  onClick={() => onChange(values.filter((other) => other !== sub))}
                >
                  ×
                </button>
              ),
            },
          ]}
        />
      ) : null}
      {field('name', 'Sub-processor name')}
      {field('location', 'Sub-processor location')}
      {field('activity', 'Sub-processor activity')}
      <div className="row">
        <button type="button" onClick={add} disabled={!complete}>
          Add sub-processor
        </button>
      </div>
      <FieldError id="dpa-sub-error" message={error} />
    </fieldset>
  );
};
