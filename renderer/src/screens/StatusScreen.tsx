import { useEffect } from 'react';
import { Page } from '../components/Page.tsx';
import { usePii } from '../state/pii.ts';

/** Service status (spec 2.3): version, overall status and the scan engine's sf_pii block. */
export const StatusScreen = () => {
  const { status, error, loadStatus } = usePii();
  useEffect(() => {
    void loadStatus();
  }, [loadStatus]);
  const pii = status?.sf_pii;
  return (
    <Page title="Service status" description="What GET /v1/svc/status reports." error={error}>
      <div className="row">
        <button type="button" onClick={() => void loadStatus()}>
          Refresh
        </button>
      </div>
      {status && pii ? (
        <div className="stack">
          <table aria-label="Service">
            <tbody>
              <tr>
                <th scope="row">Status</th>
                <td>
                  <span className={`badge ${status.status}`}>{status.status}</span>
                </td>
              </tr>
              <tr>
                <th scope="row">Version</th>
                <td className="mono">{status.version}</td>
              </tr>
            </tbody>
          </table>
          <h2>Scan engine (sf_pii)</h2>
          <table aria-label="Scan engine">
            <tbody>
              <tr>
                <th scope="row">Engine status</th>
                <td>
                  <span role="status" className={`badge ${pii.status}`}>
                    {pii.status}
                  </span>
                  {pii.status === 'degraded' ? ' Presidio is configured but unreachable; scans use the built-in engine.' : null}
                </td>
              </tr>
              <tr>
                <th scope="row">Presidio available</th>
                <td>{pii.presidio_available ? 'yes' : 'no'}</td>
              </tr>
              <tr>
                <th scope="row">Last scan</th>
                <td>{pii.last_scan_at ?? 'never'}</td>
              </tr>
              <tr>
                <th scope="row">Entity types loaded ({pii.entity_types_loaded.length})</th>
                <td className="mono">{pii.entity_types_loaded.join(', ')}</td>
              </tr>
            </tbody>
          </table>
        </div>
      ) : null}
    </Page>
  );
};
