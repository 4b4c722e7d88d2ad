import { lazy, Suspense, useEffect } from 'react';
import { ChainCard } from '../components/ChainCard.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { CoverageHeatmap } from '../components/CoverageHeatmap.tsx';
import { Page } from '../components/Page.tsx';
import { type Overview, useOverview } from '../state/overview.ts';
import './OverviewScreen.css';

// The chart library loads only when there is something to chart, keeping the first screen light.
const VolumeChart = lazy(() => import('../components/VolumeChart.tsx').then((module) => ({ default: module.VolumeChart })));

type Alert = Overview['alerts'][number];

const SampleOffer = ({ busy, onLoad }: { busy: boolean; onLoad: () => void }) => (
  <div className="card sample-offer">
    <h2>No evidence yet</h2>
    <p>
      Load a sample project to see every screen with realistic data: three models over six months, all six kinds of evidence, passing and
      failing outcomes and a month without drift monitoring. It is marked as sample data, lives in its own project and can be removed in one
      click.
    </p>
    <button type="button" className="primary" disabled={busy} onClick={onLoad}>
      Load a sample project
    </button>
  </div>
);

const Alerts = ({ alerts }: { alerts: readonly Alert[] }) => (
  <div className="card">
    <h2>Alerts ({alerts.length})</h2>
    {alerts.length === 0 ? (
      <p className="muted">Nothing needs attention.</p>
    ) : (
      <ul className="alerts">
        {alerts.map((alert) => (
          <li key={`${alert.kind}-${alert.message}`} className={`alert-item ${alert.severity}`}>
            <span className={`badge ${alert.severity === 'info' ? 'ok' : alert.severity === 'warning' ? 'warn' : 'fail'}`}>
              {alert.severity}
            </span>{' '}
            <a href={alert.link}>{alert.message}</a>
          </li>
        ))}
      </ul>
    )}
  </div>
);

type RecentBundle = Overview['bundles'][number];

/** A recent bundle's verification: a button until checked, then the verdict. */
const BundleCheck = ({ bundle }: { bundle: RecentBundle }) => {
  const check = useOverview((state) => state.bundleChecks[bundle.bundle_id]);
  const verifyBundle = useOverview((state) => state.verifyBundle);
  if (check === undefined)
    return (
      <button type="button" onClick={() => void verifyBundle(bundle.bundle_id, bundle.zip_path)} aria-label={`Verify ${bundle.bundle_id}`}>
        Verify
      </button>
    );
  if (typeof check === 'string') return <span className="badge fail">{check}</span>;
  return (
    <span className={`badge ${check.overall_valid ? 'valid' : 'fail'}`}>
      {check.overall_valid ? '✓ valid' : `✗ invalid: ${check.errors[0] ?? ''}`}
    </span>
  );
};

const RecentBundles = ({ overview }: { overview: Overview }) => {
  return (
    <div className="card">
      <h2>Recent bundles</h2>
      {overview.bundles.length === 0 ? (
        <p className="muted">
          No bundles for this project yet. <a href="#/bundles">Build one</a>.
        </p>
      ) : (
        <DataTable
          label={`Recent bundles of ${overview.project_id}`}
          rows={overview.bundles}
          rowKey={(bundle) => bundle.bundle_id}
          columns={[
            { header: 'Bundle', cell: (bundle) => <code>{bundle.bundle_id}</code> },
            { header: 'Dates', cell: (bundle) => `${bundle.date_range[0]} – ${bundle.date_range[1]}` },
            { header: 'Built', cell: (bundle) => bundle.generated_at.replace('T', ' ').slice(0, 16) },
            { header: 'Verification', cell: (bundle) => <BundleCheck bundle={bundle} /> },
          ]}
        />
      )}
    </div>
  );
};

/** The landing page: where a project stands, what needs attention, and the way into the details. */
export const OverviewScreen = () => {
  const { reply, loading, busy, error, chain, load, loadSample, removeSample } = useOverview();
  useEffect(() => {
    void load();
  }, [load]);
  const overview = reply?.overview ?? null;
  const projects = reply?.projects ?? [];
  const hasSample = projects.some((project) => project.is_sample);
  const chainAlert =
    chain?.result && !chain.result.valid
      ? [
          {
            severity: 'critical' as const,
            kind: 'chain_broken' as const,
            message: `Hash chain broken at seq ${chain.result.first_broken_seq}: ${chain.result.reason}`,
            link: '#/evidence',
          },
        ]
      : [];

  return (
    <Page
      title="Overview"
      description="Where a project stands: evidence over time, the chain, coverage per framework, bundles and alerts."
      error={error}
    >
      {reply === null ? (
        <p role="status">{loading ? 'Loading…' : ''}</p>
      ) : projects.length === 0 ? (
        <SampleOffer busy={busy} onLoad={() => void loadSample()} />
      ) : (
        <>
          <div className="toolbar">
            <label>
              Project
              <select value={overview?.project_id ?? ''} onChange={(e) => void load(e.target.value)}>
                {projects.map((project) => (
                  <option key={project.project_id} value={project.project_id}>
                    {project.project_id}
                    {project.is_sample ? ' (sample data)' : ''}
                  </option>
                ))}
              </select>
            </label>
            {overview?.is_sample ? (
              <>
                <span className="badge warn">Sample data</span>
                <button type="button" disabled={busy} onClick={() => void removeSample(overview.project_id)}>
                  Remove sample data
                </button>
              </>
            ) : null}
            {hasSample ? null : (
              <button type="button" disabled={busy} onClick={() => void loadSample()}>
                Load a sample project
              </button>
            )}
          </div>
          {overview ? (
            <div className="overview-grid">
              <Alerts alerts={[...chainAlert, ...overview.alerts]} />
              <ChainCard chain={overview.chain} check={chain} anchoring={overview.anchoring} />
              <div className="card wide">
                <h2>Evidence volume</h2>
                {overview.volume.length === 0 ? (
                  <p className="muted">No records in this project.</p>
                ) : (
                  <Suspense fallback={<p role="status">Loading chart…</p>}>
                    <VolumeChart volume={overview.volume} projectId={overview.project_id} />
                  </Suspense>
                )}
              </div>
              <div className="card wide">
                <h2>Coverage</h2>
                <p className="muted">
                  Worst status per clause group as of {overview.as_of} (rule {overview.rule_version}); the number is satisfied of mapped
                  clauses. Open a cell for the clause and its records.
                </p>
                <CoverageHeatmap overview={overview} />
              </div>
              <div className="wide">
                <RecentBundles overview={overview} />
              </div>
            </div>
          ) : null}
        </>
      )}
    </Page>
  );
};
