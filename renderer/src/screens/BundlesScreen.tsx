import { type Column, DataTable } from '../components/DataTable.tsx';
import { type FormEvent, useEffect, useState } from 'react';
import { Page } from '../components/Page.tsx';
import { callOp, messageOf } from '../state/call.ts';
import { type BuildProgress, type BundleListItem, useBundles } from '../state/bundles.ts';
import { downloadOscal } from '../state/oscal.ts';
import './BundlesScreen.css';

type FrameworkOption = { readonly id: string; readonly name: string };

const today = (): string => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const totalRecords = (bundle: BundleListItem): number => Object.values(bundle.record_counts).reduce((a, b) => a + b, 0);

const Progress = ({ progress }: { progress: BuildProgress }) => (
  <div className="bundle-progress">
    <progress aria-label="Build progress" max={progress.total ?? undefined} value={progress.total ? progress.done : undefined} />
    <span className="muted">{progress.message}</span>
  </div>
);

const BuildForm = () => {
  const { build, building, progress } = useBundles();
  const [frameworks, setFrameworks] = useState<FrameworkOption[]>([]);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [projectId, setProjectId] = useState('');
  const [from, setFrom] = useState(daysAgo(29));
  const [to, setTo] = useState(today());
  useEffect(() => {
    void callOp('frameworks.list', {}).then(({ frameworks: list }) => {
      setFrameworks(list.map((item) => ({ id: item.id, name: item.name })));
      setChosen(new Set(list.map((item) => item.id)));
    });
  }, []);
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void build({ projectId: projectId.trim(), from, to, frameworks: [...chosen] });
  };
  return (
    <form className="card stack" onSubmit={submit} aria-label="Build a bundle">
      <h2>Build a bundle</h2>
      <div className="toolbar">
        <label>
          Project
          <input required value={projectId} onChange={(e) => setProjectId(e.target.value)} placeholder="e.g. credit-risk" />
        </label>
        <label>
          From
          <input type="date" required value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To
          <input type="date" required value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
      </div>
      <fieldset className="bundle-frameworks">
        <legend>Frameworks</legend>
        {frameworks.map((framework) => (
          <label key={framework.id}>
            <input type="checkbox" checked={chosen.has(framework.id)} onChange={() => toggle(framework.id)} />
            {framework.name}
          </label>
        ))}
      </fieldset>
      <div className="toolbar">
        <button type="submit" className="primary" disabled={building || projectId.trim() === '' || chosen.size === 0}>
          {building ? 'Building…' : 'Build bundle'}
        </button>
      </div>
      {progress ? <Progress progress={progress} /> : null}
    </form>
  );
};

/** Download, OSCAL export and link reissue of one bundle, with where its ZIP is stored. */
const BundleActions = ({ bundle }: { bundle: BundleListItem }) => {
  const reissue = useBundles((state) => state.reissue);
  const [oscalError, setOscalError] = useState<string | null>(null);
  return (
    <>
      {bundle.zip_exists ? (
        <a href={`/v1/risk/cec/${bundle.bundle_id}/download`} download aria-label={`Download ${bundle.bundle_id}`}>
          Download
        </a>
      ) : (
        <span className="muted">ZIP gone</span>
      )}
      <button
        type="button"
        onClick={() => void downloadOscal(bundle.bundle_id).catch((error: unknown) => setOscalError(messageOf(error)))}
        disabled={!bundle.zip_exists}
        aria-label={`Export ${bundle.bundle_id} as OSCAL`}
      >
        Export OSCAL
      </button>
      {oscalError ? (
        <span role="alert" className="badge fail">
          {oscalError}
        </span>
      ) : null}
      <button
        type="button"
        onClick={() => void reissue(bundle.bundle_id)}
        disabled={!bundle.zip_exists}
        aria-label={`Reissue ${bundle.bundle_id}`}
      >
        Reissue link
      </button>
      <span className="bundle-path muted" title={bundle.stored_at ?? bundle.zip_path}>
        {bundle.stored_at ?? bundle.zip_path}
      </span>
    </>
  );
};

const bundleColumns: readonly Column<BundleListItem>[] = [
  { header: 'Bundle', cell: (bundle) => <code>{bundle.bundle_id}</code> },
  { header: 'Project', cell: (bundle) => bundle.project_id },
  { header: 'Dates', cell: (bundle) => `${bundle.date_range[0]} – ${bundle.date_range[1]}` },
  { header: 'Records', cell: totalRecords },
  { header: 'Frameworks', cell: (bundle) => bundle.frameworks_covered.join(', ') },
  {
    header: 'Link expires',
    cell: (bundle) => (
      <>
        <span className={`badge ${bundle.expired ? 'invalid' : 'valid'}`}>{bundle.expired ? 'expired' : 'valid'}</span>{' '}
        <time dateTime={bundle.expires_at}>{bundle.expires_at.replace('T', ' ').slice(0, 16)} UTC</time>
      </>
    ),
  },
  { header: 'File', className: 'bundle-actions', cell: (bundle) => <BundleActions bundle={bundle} /> },
];

/** Build signed evidence bundles and manage their download links. */
export const BundlesScreen = () => {
  const { bundles, total, error, notice, built, loadBundles } = useBundles();
  useEffect(() => {
    void loadBundles();
  }, [loadBundles]);
  return (
    <Page
      title="Evidence bundles"
      description="Signed ZIPs of a project's evidence for a date range, mapped to framework clauses."
      error={error}
    >
      <BuildForm />
      {notice ? (
        <p role="status" className="notice">
          {notice}
          {built ? (
            <>
              {' '}
              <code>{built.hmac_manifest.slice(0, 28)}…</code>
            </>
          ) : null}
        </p>
      ) : null}
      <div className="card">
        <h2>Bundles ({total})</h2>
        <DataTable
          className="bundle-table"
          label="Bundles"
          rows={bundles}
          rowKey={(bundle) => bundle.bundle_id}
          columns={bundleColumns}
          empty="No bundles yet."
        />
      </div>
    </Page>
  );
};
