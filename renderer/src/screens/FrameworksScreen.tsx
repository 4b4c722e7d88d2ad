import { type FormEvent, useEffect, useState } from 'react';
import { type Column, DataTable } from '../components/DataTable.tsx';
import { Page } from '../components/Page.tsx';
import { drillLimit, useFrameworks } from '../state/frameworks.ts';
import type { OpOutput } from '../transport/index.ts';
import './FrameworksScreen.css';

type Entry = OpOutput<'frameworks.clauseMap'>['entries'][number];
type Status = Entry['status'];

/** Text and symbol for each status, so the table never relies on colour alone. */
const statusLabel: Readonly<Record<Status, { text: string; symbol: string }>> = {
  SATISFIED: { text: 'Satisfied', symbol: '✓' },
  PARTIAL: { text: 'Partial', symbol: '◐' },
  GAP: { text: 'Gap', symbol: '✗' },
};
const statusFilters = ['all', 'SATISFIED', 'PARTIAL', 'GAP'] as const;

const StatusBadge = ({ status }: { status: Status }) => (
  <span className={`badge ${status}`}>
    <span aria-hidden="true">{statusLabel[status].symbol} </span>
    {statusLabel[status].text}
  </span>
);

/** Why the clause has its status: each rule per mapped key, passed or not, with the records it rests on. */
const ClauseReasons = ({ entry }: { entry: Entry }) => (
  <ul className="clause-reasons" aria-label={`Why ${entry.clause_id} is ${statusLabel[entry.status].text.toLowerCase()}`}>
    {entry.reasons.map((reason) => (
      <li key={`${reason.schema_key}-${reason.code}`} className={reason.ok ? 'ok' : 'not-ok'}>
        <span aria-hidden="true">{reason.ok ? '✓' : '✗'} </span>
        <span className="sr-only">{reason.ok ? 'passes' : 'fails'}: </span>
        <code>{reason.schema_key}</code> ({reason.relationship}, {reason.rule}): {reason.message}
        {reason.records.length > 0 ? <> Records: {reason.records.map((record) => record.record_id).join(', ')}</> : null}
      </li>
    ))}
  </ul>
);

type EvidenceItem = Entry['evidence'][number];
type DrillRecord = OpOutput<'audit.query'>['records'][number];

const recordColumns: readonly Column<DrillRecord>[] = [
  { header: 'Seq', cell: (record) => record.seq },
  { header: 'Record id', cell: (record) => <code>{record.record_id}</code> },
  { header: 'Event time', cell: (record) => record.timestamp },
  { header: 'Hash', cell: (record) => <code title={record.hash}>{record.hash.slice(0, 16)}…</code> },
];

const ClauseDetail = ({ entry }: { entry: Entry }) => {
  const { definitions, drill, drillInto, closeDrill } = useFrameworks();
  const definition = definitions[entry.clause_id];
  const rationaleOf = (key: string) => definition?.mappings.find((m) => m.schema_key === key)?.rationale ?? '';
  const isOpen = (item: EvidenceItem) => drill?.key === `${entry.clause_id}|${item.schema_key}`;
  const columns: readonly Column<EvidenceItem>[] = [
    { header: 'Schema key', cell: (item) => <code>{item.schema_key}</code> },
    { header: 'Relationship', cell: (item) => item.relationship },
    { header: 'Records', cell: (item) => item.count },
    { header: 'Why it counts', cell: (item) => rationaleOf(item.schema_key) },
    {
      header: 'Drill-down',
      cell: (item) => {
        const open = isOpen(item);
        return (
          <button
            type="button"
            disabled={item.count === 0}
            aria-expanded={open}
            aria-label={`${open ? 'Hide' : 'Show'} ${item.schema_key} records for ${entry.clause_id}`}
            onClick={() => (open ? closeDrill() : void drillInto(entry.clause_id, item.schema_key))}
          >
            {open ? 'Hide' : 'Show'}
          </button>
        );
      },
    },
  ];
  const records = (item: EvidenceItem) =>
    drill && isOpen(item) ? (
      <>
        {drill.error ? (
          <div role="alert" className="alert">
            {drill.error}
          </div>
        ) : null}
        {drill.page === null && drill.error === null ? <p role="status">Loading records…</p> : null}
        {drill.page ? (
          <>
            <DataTable
              label={`${item.schema_key}: first ${Math.min(drillLimit, drill.page.total)} of ${drill.page.total} records`}
              showLabel
              columns={recordColumns}
              rows={drill.page.records}
              rowKey={(record) => String(record.seq)}
            />
            <p>
              <a href="#/evidence">Open the Evidence screen</a> for every record of this project.
            </p>
          </>
        ) : null}
      </>
    ) : null;
  return (
    <div className="clause-detail">
      <p>{entry.description}</p>
      <p className="muted">Source: {definition?.source ?? entry.clause_id}</p>
      <ClauseReasons entry={entry} />
      <DataTable
        label={`Evidence for ${entry.clause_id}`}
        columns={columns}
        rows={entry.evidence}
        rowKey={(item) => item.schema_key}
        detail={records}
      />
    </div>
  );
};

export const FrameworksScreen = () => {
  const { frameworks, projects, map, loading, error, init, showMap } = useFrameworks();
  const [project, setProject] = useState('');
  const [framework, setFramework] = useState('eu_ai_act');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [filter, setFilter] = useState<(typeof statusFilters)[number]>('all');
  const [expanded, setExpanded] = useState<string | null>(null);
  useEffect(() => void init(), [init]);
  useEffect(() => {
    if (project === '' && projects[0] !== undefined) setProject(projects[0]);
  }, [project, projects]);
  // Links from the Overview carry the project, framework and clause to open (`#/frameworks?project=…`).
  useEffect(() => {
    const params = new URLSearchParams(window.location.hash.split('?')[1] ?? '');
    const linked = params.get('project');
    const linkedFramework = params.get('framework') ?? 'eu_ai_act';
    if (linked === null) return;
    setProject(linked);
    setFramework(linkedFramework);
    setExpanded(params.get('clause'));
    void showMap({ project_id: linked, framework: linkedFramework, from: '', to: '' });
  }, [showMap]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setExpanded(null);
    void showMap({ project_id: project.trim(), framework, from, to });
  };
  const summary = map?.summary[0];
  const rows = (map?.entries ?? []).filter((entry) => filter === 'all' || entry.status === filter);
  const clauseColumns: readonly Column<Entry>[] = [
    { header: 'Clause', rowHeader: true, cell: (entry) => entry.clause_id },
    { header: 'Title', cell: (entry) => entry.clause_name },
    { header: 'Status', cell: (entry) => <StatusBadge status={entry.status} /> },
    { header: 'Evidence', cell: (entry) => entry.evidence_count },
    {
      header: 'Details',
      cell: (entry) => {
        const open = expanded === entry.clause_id;
        return (
          <button
            type="button"
            aria-expanded={open}
            aria-label={`Evidence for ${entry.clause_id}`}
            onClick={() => setExpanded(open ? null : entry.clause_id)}
          >
            {open ? 'Hide' : 'Evidence'}
          </button>
        );
      },
    },
  ];

  return (
    <Page
      title="Framework clause maps"
      description="Which clauses a project's evidence supports, per framework and date range. A clause is satisfied when every primary schema key has records whose latest outcomes pass and that meet the framework's cadence; partial when evidence exists but fails, is stale or leaves months uncovered; a gap when no mapped key has records. Open a clause for the reasons."
      error={error}
    >
      <form onSubmit={submit} className="toolbar" aria-label="Clause map query">
        <label>
          Project
          <input value={project} onChange={(e) => setProject(e.target.value)} list="framework-projects" required maxLength={128} />
          <datalist id="framework-projects">
            {projects.map((id) => (
              <option key={id} value={id} />
            ))}
          </datalist>
        </label>
        <label>
          Framework
          <select value={framework} onChange={(e) => setFramework(e.target.value)}>
            {frameworks.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={loading || project.trim() === ''}>
          Show clause map
        </button>
      </form>

      {map && summary ? (
        <>
          <p role="status" className="framework-summary">
            {summary.name} for <strong>{map.project_id}</strong>
            {map.from || map.to ? ` (${map.from ?? '…'} to ${map.to ?? '…'})` : ' (all dates)'}: {summary.SATISFIED} satisfied,{' '}
            {summary.PARTIAL} partial, {summary.GAP} gap of {summary.clauses} mapped clauses.
          </p>
          <p className="muted">
            Cadence: {map.cadences[0]?.text ?? 'none'}, as of {map.as_of} (rule {map.rule_version}).
          </p>
          <p className="muted">
            Records in range:{' '}
            {Object.entries(map.counts)
              .map(([key, count]) => `${key} ${count}`)
              .join(' · ')}
          </p>
          <div className="toolbar">
            <label>
              Show
              <select value={filter} onChange={(e) => setFilter(e.target.value as (typeof statusFilters)[number])}>
                {statusFilters.map((value) => (
                  <option key={value} value={value}>
                    {value === 'all' ? 'All statuses' : statusLabel[value].text}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <DataTable
            className="clause-map"
            label={`Clause map of ${summary.name}`}
            columns={clauseColumns}
            rows={rows}
            rowKey={(entry) => entry.clause_id}
            rowClassName={(entry) => (entry.level === 'group' ? 'clause-group' : undefined)}
            empty={`No clause of ${summary.name} has this status for the chosen project and dates.`}
            detail={(entry) => (expanded === entry.clause_id ? <ClauseDetail entry={entry} /> : null)}
          />
        </>
      ) : (
        <p className="muted">{loading ? 'Computing…' : 'Choose a project and a framework, then show its clause map.'}</p>
      )}
    </Page>
  );
};
