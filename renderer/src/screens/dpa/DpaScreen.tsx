import { type FormEvent, useEffect, useState } from 'react';
import { downloadBase64 } from '../../components/download.ts';
import { Page } from '../../components/Page.tsx';
import { type DpaFormat, useDpa } from '../../state/dpa.ts';
import { DpaForm } from './DpaForm.tsx';
import { formats } from './formats.ts';
import { StoredAgreements } from './StoredAgreements.tsx';
import { useDpaForm } from './useDpaForm.ts';
import './DpaScreen.css';

/** GDPR Art. 28 DPA generator: the form with a live preview, the document just generated, and the stored ones. */
export const DpaScreen = () => {
  const { options, previewHtml, previewProblem, documents, current, busy, error, status, init, preview, generate, exportFile, remove } =
    useDpa();
  const form = useDpaForm();
  const { input, valid } = form;
  const [attempted, setAttempted] = useState(false);

  useEffect(() => {
    void init();
  }, [init]);

  useEffect(() => {
    if (!valid) return;
    const timer = setTimeout(() => void preview(input), 350);
    return () => clearTimeout(timer);
  }, [input, valid, preview]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setAttempted(true);
    if (valid) void generate(input);
  };
  const download = async (id: string, format: DpaFormat): Promise<void> => {
    const file = await exportFile(id, format);
    if (file) downloadBase64(file);
  };

  return (
    <Page
      title="GDPR Article 28 DPA generator"
      description="Fill in the parties and the processing; the agreement is drafted as you type. Generated documents are stored with your data and export to PDF, DOCX, HTML and Markdown."
      error={error}
    >
      <div className="dpa-layout">
        <DpaForm form={form} options={options} attempted={attempted} busy={busy} onSubmit={submit} />
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
      <StoredAgreements documents={documents} download={(id, format) => void download(id, format)} remove={(id) => void remove(id)} />
    </Page>
  );
};
