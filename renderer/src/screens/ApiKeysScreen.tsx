import { type FormEvent, useEffect, useState } from 'react';
import { DataTable } from '../components/DataTable.tsx';
import { Page } from '../components/Page.tsx';
import { useKeys } from '../state/keys.ts';

const tiers = ['free', 'api', 'admin'] as const;

export const ApiKeysScreen = () => {
  const { keys, loading, error, revealed, load, create, rotate, revoke, dismissSecret } = useKeys();
  const [name, setName] = useState('');
  const [tier, setTier] = useState<(typeof tiers)[number]>('api');
  const [scim, setScim] = useState(false);
  useEffect(() => void load(), [load]);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void create({ name: name.trim() || 'API key', tier, scopes: scim ? ['scim'] : [] });
    setName('');
  };
  return (
    <Page
      title="API Keys"
      description="Keys for tools that call the local API. A secret is shown once, when created or rotated."
      error={error}
    >
      <form onSubmit={submit} className="toolbar" aria-label="Create API key">
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} placeholder="CI pipeline" />
        </label>
        <label>
          Tier
          <select value={tier} onChange={(e) => setTier(e.target.value as (typeof tiers)[number])}>
            {tiers.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          <input type="checkbox" checked={scim} onChange={(e) => setScim(e.target.checked)} /> SCIM provisioning scope
        </label>
        <button type="submit" className="primary" disabled={loading}>
          Create key
        </button>
      </form>
      {revealed ? (
        <div role="status" className="notice">
          <p id="new-key-label">
            New secret for <strong>{revealed.name}</strong>. Copy it now: it will not be shown again.
          </p>
          <code id="new-key-secret" className="secret">
            {revealed.secret}
          </code>
          <div className="row">
            <button type="button" onClick={() => void navigator.clipboard?.writeText(revealed.secret)}>
              Copy
            </button>
            <button type="button" onClick={dismissSecret}>
              Done
            </button>
          </div>
        </div>
      ) : null}
      <DataTable
        label="API keys"
        rows={keys}
        rowKey={(key) => key.id}
        empty="No API keys yet."
        columns={[
          { header: 'Name', cell: (key) => key.name },
          { header: 'Key', cell: (key) => <code>{key.prefix}…</code> },
          { header: 'Tier', cell: (key) => `${key.tier}${key.scopes.length > 0 ? ` (${key.scopes.join(', ')})` : ''}` },
          { header: 'Status', cell: (key) => <span className={`badge ${key.status}`}>{key.status}</span> },
          { header: 'Created', cell: (key) => new Date(key.created_at).toLocaleString() },
          { header: 'Last used', cell: (key) => (key.last_used_at ? new Date(key.last_used_at).toLocaleString() : '—') },
          {
            header: 'Actions',
            cell: (key) =>
              key.status === 'active' ? (
                <div className="row">
                  <button type="button" onClick={() => void rotate(key.id, 3600)} aria-label={`Rotate ${key.name}`}>
                    Rotate
                  </button>
                  <button type="button" className="danger" onClick={() => void revoke(key.id)} aria-label={`Revoke ${key.name}`}>
                    Revoke
                  </button>
                </div>
              ) : null,
          },
        ]}
      />
    </Page>
  );
};
