import { type FormEvent, type KeyboardEvent, useEffect, useMemo, useState } from 'react';
import { Page } from '../components/Page.tsx';
import { type DpaFile, type DpaFormat, type DpaInput, useDpa } from '../state/dpa.ts';
import './DpaScreen.css';

type Party = { name: string; address: string; contact: string };
type SubProcessor = { name: string; location: string; activity: string };
type Problems = Partial<Record<string, string>>;

const emptyParty: Party = { name: '', address: '', contact: '' };
const formats: readonly { format: DpaFormat; label: string }[] = [
  { format: 'pdf', label: 'PDF' },
  { format: 'docx', label: 'DOCX' },
  { format: 'html', label: 'HTML' },
  { format: 'md', label: 'Markdown' },
];

/** Saves an exported file through a temporary Blob URL (works the same in Electron and the browser). */
const saveFile = (file: DpaFile): void => {
  const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: file.mime }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = file.filename;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

/** The form's own checks, so the user sees what is missing before the server is asked. */
const check = (f: {
  projectId: string;
  controller: Party;
  processor: Party;
  categories: string[];
  mechanisms: string[];
  retention: string;
  law: string;
}): Problems => {
  const problems: Problems = {};
  if (f.projectId.trim() === '') problems.projectId = 'Enter a project id.';
  for (const [key, party] of [
    ['controller', f.controller],
    ['processor', f.processor],
  ] as const) {
    if (party.name.trim() === '') problems[`${key}.name`] = `Enter the ${key}'s name.`;
    if (party.address.trim() === '') problems[`${key}.address`] = `Enter the ${key}'s address.`;
  }
  if (f.categories.length === 0) problems.categories = 'Add at least one category of data subjects.';
  if (f.mechanisms.length === 0) problems.mechanisms = 'Choose at least one transfer mechanism.';
  const days = Number(f.retention);
  if (!/^\d+$/.test(f.retention.trim()) || !Number.isInteger(days) || days < 1)
    problems.retention = 'Enter a whole number of days, 1 or more.';
  if (f.law.trim() === '') problems.law = 'Enter the governing law (e.g. DE or Irish law).';
  return problems;
};

const FieldError = ({ id, message }: { id: string; message: string | undefined }) =>
  message ? (
    <span id={id} className="dpa-error">
      {message}
    </span>
  ) : null;

const PartyFields = ({
  party,
  value,
  onChange,
  problems,
  show,
}: {
  party: 'controller' | 'processor';
  value: Party;
  onChange: (details: Party) => void;
  problems: Problems;
  show: boolean;
}) => {
  const title = party === 'controller' ? 'Controller' : 'Processor';
  const input = (field: keyof Party, label: string, multiline = false) => {
    const id = `dpa-${party}-${field}`;
    const problem = show ? problems[`${party}.${field}`] : undefined;
    const common = {
      id,
      value: value[field],
      'aria-invalid': problem ? true : undefined,
      'aria-describedby': problem ? `${id}-error` : undefined,
    };
    return (
      <div className="field">
        <label htmlFor={id}>{`${title} ${label}`}</label>
        {multiline ? (
          <textarea {...common} rows={3} onChange={(e) => onChange({ ...value, [field]: e.target.value })} />
        ) : (
          <input {...common} onChange={(e) => onChange({ ...value, [field]: e.target.value })} />
        )}
        <FieldError id={`${id}-error`} message={problem} />
      </div>
    );
  };
  return (
    <fieldset className="dpa-party">
      <legend>{title}</legend>
      {input('name', 'name')}
      {input('address', 'address', true)}
      {input('contact', 'contact (optional)')}
    </fieldset>
  );
};

/** A list of short texts shown as removable chips, with an input that adds one on Enter or with the button. */
const ChipInput = ({
  id,
  legend,
  inputLabel,
  placeholder,
  values,
  onChange,
  error,
}: {
  id: string;
  legend: string;
  inputLabel: string;
  placeholder: string;
  values: readonly string[];
  onChange: (values: string[]) => void;
  error: string | undefined;
}) => {
  const [draft, setDraft] = useState('');
  const add = (): void => {
    const value = draft.trim();
    if (value !== '' && !values.includes(value)) onChange([...values, value]);
    setDraft('');
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };
  return (
    <fieldset>
      <legend>{legend}</legend>
      <ul className="dpa-chips" aria-label={legend}>
        {values.map((value) => (
          <li key={value} className="dpa-chip">
            {value}
            <button type="button" aria-label={`Remove ${value}`} onClick={() => onChange(values.filter((v) => v !== value))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className="row">
        <label htmlFor={id} className="sr-only">
          {inputLabel}
        </label>
        <input id={id} placeholder={placeholder} value={draft} onChange={(e) => setDraft(e.target.value)} onKeyDown={onKey} />
        <button type="button" onClick={add} disabled={draft.trim() === ''} aria-label={`Add to ${legend.toLowerCase()}`}>
          Add
        </button>
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
};

const emptySub: SubProcessor = { name: '', location: '', activity: '' };
const subKey = (sub: SubProcessor): string => `${sub.name}\u0000${sub.location}\u0000${sub.activity}`;

/** Annex III: sub-processors authorised at signature, added one row at a time. */
const SubProcessorsInput = ({ values, onChange }: { values: readonly SubProcessor[]; onChange: (values: SubProcessor[]) => void }) => {
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
        <table aria-label="Authorised sub-processors" className="dpa-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Location</th>
              <th scope="col">Activity</th>
              <th scope="col">
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {values.map((sub) => (
              <tr key={subKey(sub)}>
                <td>{sub.name}</td>
                <td>{sub.location}</td>
                <td>{sub.activity}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`Remove sub-processor ${sub.name}`}
                    onClick={() => onChange(values.filter((other) => other !== sub))}
                  >
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {field('name', 'Sub-processor name')}
      {field('location', 'Sub-processor location')}
      {field('activity', 'Sub-processor activity')}
      <div className="row">
        <button type="button" onClick={add} disabled={!complete}>
          Add sub-processor
        </button>
      </div>
    </fieldset>
  );
};

export const DpaScreen = () => {
  const { options, previewHtml, previewProblem, documents, current, busy, error, status, init, preview, generate, exportFile, remove } =
    useDpa();
  const [projectId, setProjectId] = useState('default');
  const [controller, setController] = useState<Party>(emptyParty);
  const [processor, setProcessor] = useState<Party>(emptyParty);
  const [categories, setCategories] = useState<string[]>([]);
  const [dataTypes, setDataTypes] = useState<string[]>([]);
  const [purpose, setPurpose] = useState('');
  const [subProcessors, setSubProcessors] = useState<SubProcessor[]>([]);
  const [mechanisms, setMechanisms] = useState<string[]>([]);
  const [retention, setRetention] = useState('90');
  const [law, setLaw] = useState('');
  const [attempted, setAttempted] = useState(false);

  useEffect(() => {
    void init();
  }, [init]);

  const problems = check({ projectId, controller, processor, categories, mechanisms, retention, law });
  const valid = Object.keys(problems).length === 0;
  const input: DpaInput = useMemo(
    () => ({
      project_id: projectId.trim(),
      controller_details: controller,
      processor_details: processor,
      subject_categories: categories,
      transfer_mechanisms: mechanisms,
      retention_period_days: Number(retention),
      law_of_contract: law,
      ...(dataTypes.length > 0 ? { data_categories: dataTypes } : {}),
      ...(purpose.trim() !== '' ? { processing_purpose: purpose } : {}),
      ...(subProcessors.length > 0 ? { sub_processors: subProcessors } : {}),
    }),
    [projectId, controller, processor, categories, dataTypes, purpose, subProcessors, mechanisms, retention, law],
  );

  useEffect(() => {
    if (!valid) return;
    const timer = setTimeout(() => void preview(input), 350);
    return () => clearTimeout(timer);
  }, [input, valid, preview]);

  // "No transfer outside the EEA" excludes every other mechanism, and the other way round.
  const toggleMechanism = (id: string, checked: boolean): void => {
    if (!checked) setMechanisms(mechanisms.filter((m) => m !== id));
    else if (id === 'none_eea_only') setMechanisms([id]);
    else setMechanisms([...mechanisms.filter((m) => m !== 'none_eea_only'), id]);
  };
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setAttempted(true);
    if (valid) void generate(input);
  };
  const download = async (id: string, format: DpaFormat): Promise<void> => {
    const file = await exportFile(id, format);
    if (file) saveFile(file);
  };
  const shown = (key: string) => (attempted ? problems[key] : undefined);

  return (
    <Page
      title="GDPR Article 28 DPA generator"
      description="Fill in the parties and the processing; the agreement is drafted as you type. Generated documents are stored with your data and export to PDF, DOCX, HTML and Markdown."
      error={error}
    >
      <div className="dpa-layout">
        <form onSubmit={submit} className="stack dpa-form" noValidate aria-label="DPA details">
          <div className="field">
            <label htmlFor="dpa-project">Project id</label>
            <input
              id="dpa-project"
              value={projectId}
              onChange={(e) => setProjectId(e.target.value)}
              aria-invalid={shown('projectId') ? true : undefined}
            />
            <FieldError id="dpa-project-error" message={shown('projectId')} />
          </div>
          <PartyFields party="controller" value={controller} onChange={setController} problems={problems} show={attempted} />
          <PartyFields party="processor" value={processor} onChange={setProcessor} problems={problems} show={attempted} />
          <ChipInput
            id="dpa-category"
            legend="Categories of data subjects"
            inputLabel="New category of data subjects"
            placeholder="e.g. customers"
            values={categories}
            onChange={setCategories}
            error={shown('categories')}
          />
          <ChipInput
            id="dpa-data-type"
            legend="Types of personal data (optional)"
            inputLabel="New type of personal data"
            placeholder="e.g. contact details"
            values={dataTypes}
            onChange={setDataTypes}
            error={undefined}
          />
          <div className="field">
            <label htmlFor="dpa-purpose">Purpose of the processing (optional)</label>
            <textarea id="dpa-purpose" rows={3} value={purpose} onChange={(e) => setPurpose(e.target.value)} />
          </div>
          <SubProcessorsInput values={subProcessors} onChange={setSubProcessors} />
          <fieldset>
            <legend>Transfer mechanisms</legend>
            {(options?.transfer_mechanisms ?? []).map((mechanism) => (
              <label key={mechanism.id} className="inline">
                <input
                  type="checkbox"
                  checked={mechanisms.includes(mechanism.id)}
                  onChange={(e) => toggleMechanism(mechanism.id, e.target.checked)}
                />
                {mechanism.display_name}
              </label>
            ))}
            <FieldError id="dpa-mechanisms-error" message={shown('mechanisms')} />
          </fieldset>
          <div className="field">
            <label htmlFor="dpa-retention">Retention period (days)</label>
            <input
              id="dpa-retention"
              type="number"
              min={1}
              step={1}
              value={retention}
              onChange={(e) => setRetention(e.target.value)}
              aria-invalid={shown('retention') ? true : undefined}
            />
            <FieldError id="dpa-retention-error" message={shown('retention')} />
          </div>
          <div className="field">
            <label htmlFor="dpa-law">Governing law (country code or text)</label>
            <input id="dpa-law" value={law} onChange={(e) => setLaw(e.target.value)} aria-invalid={shown('law') ? true : undefined} />
            <FieldError id="dpa-law-error" message={shown('law')} />
          </div>
          {attempted && !valid ? (
            <div role="alert" className="alert">
              Please fix the {Object.keys(problems).length === 1 ? 'field' : `${Object.keys(problems).length} fields`} marked above.
            </div>
          ) : null}
          <div className="row">
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Generating…' : 'Generate DPA'}
            </button>
          </div>
        </form>
        <section className="dpa-preview" aria-labelledby="dpa-preview-title">
          <h2 id="dpa-preview-title">Preview</h2>
          {!valid ? <p className="muted">Complete the form to see the agreement.</p> : null}
          {valid && previewProblem ? <p className="alert">{previewProblem}</p> : null}
          {valid && previewHtml ? <iframe title="DPA preview" sandbox="" srcDoc={previewHtml} /> : null}
        </section>
      </div>
      {status ? (
        <p role="status" className="notice">
          {status}
        </p>
      ) : null}
      {current ? (
        <section className="card stack" aria-labelledby="dpa-current-title">
          <h2 id="dpa-current-title">Generated document {current.document_id}</h2>
          <div className="row">
            {formats.map(({ format, label }) => (
              <button key={format} type="button" onClick={() => void download(current.document_id, format)}>
                Download {label}
              </button>
            ))}
          </div>
        </section>
      ) : null}
      <h2>Stored agreements</h2>
      {documents.length === 0 ? (
        <p className="muted">No agreements yet.</p>
      ) : (
        <table aria-label="Stored agreements" className="dpa-table">
          <thead>
            <tr>
              <th scope="col">Generated</th>
              <th scope="col">Project</th>
              <th scope="col">Controller</th>
              <th scope="col">Processor</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {documents.map((doc) => (
              <tr key={doc.document_id}>
                <td>{new Date(doc.generated_at).toLocaleString()}</td>
                <td>{doc.project_id}</td>
                <td>{doc.controller_name}</td>
                <td>{doc.processor_name}</td>
                <td className="row">
                  {formats.map(({ format, label }) => (
                    <button
                      key={format}
                      type="button"
                      aria-label={`${label} of ${doc.document_id}`}
                      onClick={() => void download(doc.document_id, format)}
                    >
                      {label}
                    </button>
                  ))}
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Delete ${doc.document_id}`}
                    onClick={() => void remove(doc.document_id)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
};
