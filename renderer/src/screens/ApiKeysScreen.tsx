import { type FormEvent, useEffect, useState } from 'react';
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
      <table>
        <caption className="sr-only">API keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Tier</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {keys.length === 0 ? (
            <tr>
              <td colSpan={7} className="muted">
                No API keys yet.
              </td>
            </tr>
          ) : null}
          {keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>
                {key.tier}
                {key.scopes.length > 0 ? ` (${key.scopes.join(', ')})` : ''}
              </td>
              <td>
                <span className={`badge ${key.status}`}>{key.status}</span>
              </td>
              <td>{new Date(key.created_at).toLocaleString()}</td>
              <td>{key.last_used_at ? new Date(key.last_used_at).toLocaleString() : '—'}</td>
              <td>
                {key.status === 'active' ? (
                  <div className="row">
                    <button type="button" onClick={() => void rotate(key.id, 3600)} aria-label={`Rotate ${key.name}`}>
                      Rotate
                    </button>
                    <button type="button" className="danger" onClick={() => void revoke(key.id)} aria-label={`Revoke ${key.name}`}>
                      Revoke
                    </button>
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Page>
  );
};
