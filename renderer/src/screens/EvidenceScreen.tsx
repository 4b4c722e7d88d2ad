import { DataTable } from '../components/DataTable.tsx';
import { type FormEvent, useEffect, useState } from 'react';
import type { EvidenceRecord, SchemaKey } from '../../../core/audit/types.ts';
import { Page } from '../components/Page.tsx';
import { type ChainVerification, type ImportProgress, useEvidence } from '../state/evidence.ts';
import { AnchorsPanel } from './AnchorsPanel.tsx';
import './EvidenceScreen.css';

const schemaKeyOptions: readonly SchemaKey[] = [
  'score_records',
  'bias_reports',
  'prri_records',
  'drift_events',
  'pii_detections',
  'gate_evaluations',
];

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** One line a reviewer can scan: the few fields that matter for each kind of evidence. */
const summarise = (record: EvidenceRecord): string => {
  const p = record.payload;
  switch (record.schema_key) {
    case 'score_records':
      return `${text(p.model_id)} ${text(p.model_version)}: ${text(p.metric)} = ${text(p.value)} on ${text(p.dataset)}`;
    case 'bias_reports':
      return `${text(p.protected_attribute)}: ${text(p.metric)} ${text(p.disparity)} (threshold ${text(p.threshold)}), ${p.passed ? 'passed' : 'failed'}`;
    case 'prri_records':
      return `${text(p.model_id)}: risk ${text(p.score)} (${text(p.level)})`;
    case 'drift_events':
      return `${text(p.feature)}: ${text(p.statistic)} ${text(p.value)} vs ${text(p.threshold)}, ${p.detected ? 'drift detected' : 'no drift'}`;
    case 'pii_detections': {
      const counts = Object.entries((p.entity_counts as Record<string, number> | undefined) ?? {});
      return `${text(p.total_findings)} findings in ${text(p.source)}${counts.length ? `: ${counts.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}`;
    }
    case 'gate_evaluations':
      return `${text(p.gate)}: ${text(p.decision)} for ${text(p.model_id)} ${text(p.model_version)}`;
    default:
      return '';
  }
};

const ProgressBar = ({ progress }: { progress: ImportProgress }) => (
  <div className="evidence-progress">
    <progress aria-label="Import progress" max={progress.total ?? undefined} value={progress.total ? progress.done : undefined} />
    <span className="muted">{progress.message}</span>
  </div>
);

const ChainStatus = ({ chain }: { chain: ChainVerification }) =>
  chain.valid ? (
    <p role="status" className="chain-status">
      <span className="badge valid">Chain verified</span> {chain.checked} records re-hashed, head seq {chain.head_seq}{' '}
      <code title={chain.head_hash}>{chain.head_hash.slice(0, 16)}…</code>
    </p>
  ) : (
    <p role="status" className="chain-status">
      <span className="badge invalid">Chain broken at seq {chain.first_broken_seq}</span> {chain.reason}
    </p>
  );

const ImportCard = () => {
  const { importing, progress, imported, importError, importFile } = useEvidence();
  const [file, setFile] = useState<File | null>(null);
  const [defaultProject, setDefaultProject] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) void importFile(file, defaultProject.trim());
  };
  return (
    <form className="card stack evidence-import" onSubmit={submit} aria-label="Import NDJSON">
      <h2>Import NDJSON</h2>
      <div className="toolbar">
        <label>
          NDJSON file
          <input type="file" accept=".ndjson,.jsonl,application/x-ndjson" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <label>
          Project for lines without project_id
          <input value={defaultProject} onChange={(e) => setDefaultProject(e.target.value)} placeholder="optional" />
        </label>
        <button type="submit" className="primary" disabled={!file || importing}>
          {importing ? 'Importing…' : 'Import'}
        </button>
      </div>
      <p className="muted">One record per line; the whole file is imported or, if any line is invalid, nothing is.</p>
      {progress && importing ? <ProgressBar progress={progress} /> : null}
      {imported ? (
        <p role="status">
          Imported {imported.imported} records:{' '}
          {imported.projects.map((p) => `${p.project_id} seq ${p.first_seq}–${p.last_seq}`).join('; ')}
        </p>
      ) : null}
      {importError ? (
        <p role="alert" className="alert">
          Import failed: {importError}
        </p>
      ) : null}
    </form>
  );
};

const RecordsTable = () => {
  const { records, page, loadRecords, loading } = useEvidence();
  if (records === null) return null;
  const pages = Math.max(1, Math.ceil(records.total / records.limit));
  return (
    <>
      <DataTable
        className="evidence-table"
        label="Evidence records"
        rows={records.records}
        rowKey={(r) => String(r.seq)}
        empty="No records match these filters."
        columns={[
          { header: 'Seq', cell: (r) => r.seq },
          { header: 'Event time (UTC)', cell: (r) => r.timestamp.replace('T', ' ').replace('.000Z', 'Z') },
          { header: 'Schema key', cell: (r) => r.schema_key },
          { header: 'Record id', className: 'mono', cell: (r) => r.record_id },
          {
            header: 'Summary',
            cell: (r) => (
              <details>
                <summary>{summarise(r)}</summary>
                <pre>{JSON.stringify(r.payload, null, 2)}</pre>
              </details>
            ),
          },
          { header: 'Hash', className: 'mono', cell: (r) => <span title={r.hash}>{r.hash.slice(0, 12)}…</span> },
        ]}
      />
      <nav className="row evidence-pager" aria-label="Pages">
        <button type="button" disabled={page <= 1 || loading} onClick={() => void loadRecords(page - 1)}>
          Previous page
        </button>
        <span>
          Page {page} of {pages} ({records.total} records)
        </span>
        <button type="button" disabled={page >= pages || loading} onClick={() => void loadRecords(page + 1)}>
          Next page
        </button>
      </nav>
    </>
  );
};

/** Evidence records: import NDJSON with progress, browse a project's records with filters, verify its chain. */
export const EvidenceScreen = () => {
  const { projects, filters, setFilters, loadProjects, loadRecords, verifyChain, verifying, chain, loading, error } = useEvidence();
  useEffect(() => {
    void loadProjects();
  }, [loadProjects]);
  const show = (event: FormEvent) => {
    event.preventDefault();
    void loadRecords(1);
  };
  return (
    <Page
      title="Evidence records"
      description="Tamper-evident evidence per project: each record is hash-chained to the one before."
      error={error}
    >
      <ImportCard />
      <form className="toolbar" onSubmit={show} aria-label="Filter records">
        <label>
          Project
          <input
            list="evidence-projects"
            value={filters.projectId}
            onChange={(e) => setFilters({ projectId: e.target.value })}
            placeholder="project id"
          />
          <datalist id="evidence-projects">
            {projects.map((p) => (
              <option key={p.project_id} value={p.project_id}>{`${p.record_count} records`}</option>
            ))}
          </datalist>
        </label>
        <label>
          Schema key
          <select value={filters.schemaKey} onChange={(e) => setFilters({ schemaKey: e.target.value as SchemaKey | '' })}>
            <option value="">All keys</option>
            {schemaKeyOptions.map((key) => (
              <option key={key} value={key}>
                {key}
              </option>
            ))}
          </select>
        </label>
        <label>
          From (UTC)
          <input type="date" value={filters.from} onChange={(e) => setFilters({ from: e.target.value })} />
        </label>
        <label>
          To (UTC)
          <input type="date" value={filters.to} onChange={(e) => setFilters({ to: e.target.value })} />
        </label>
        <button type="submit" className="primary" disabled={loading}>
          Show records
        </button>
        <button type="button" disabled={verifying || filters.projectId === ''} onClick={() => void verifyChain()}>
          {verifying ? 'Verifying…' : 'Verify chain'}
        </button>
      </form>
      {chain ? <ChainStatus chain={chain} /> : null}
      <AnchorsPanel projectId={projects.some((p) => p.project_id === filters.projectId) ? filters.projectId : null} />
      <RecordsTable />
    </Page>
  );
};
