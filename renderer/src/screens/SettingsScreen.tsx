import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Page } from '../components/Page.tsx';
import { useSettings } from '../state/settings.ts';

type Values = Record<string, string | number | boolean>;

const secretLabels: Record<string, string> = {
  signingKey: 'Bundle signing key (HMAC)',
  chatApiKey: 'Chat provider API key',
  oidcClientSecret: 'OIDC client secret',
  samlSpDecryptionKey: 'SAML SP decryption key (PEM private key)',
};

/** Settings form derived from the settings JSON Schema; secrets are write-only (set or cleared, never shown). */
export const SettingsScreen = () => {
  const { view, saving, error, saved, load, save } = useSettings();
  const [values, setValues] = useState<Values>({});
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (view) setValues({ ...(view.values as Values) });
  }, [view]);
  if (!view)
    return (
      <Page title="Settings" error={error}>
        {error ? null : <p role="status">Loading…</p>}
      </Page>
    );

  const fields = Object.entries(view.schema.properties);
  const overridden = new Set<string>(view.overriddenByEnv);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const changed = Object.fromEntries(
      Object.entries(values).filter(([key, value]) => !overridden.has(key) && (view.values as Values)[key] !== value),
    );
    const secretChanges = Object.fromEntries(Object.entries(secrets).filter(([, value]) => value !== ''));
    void save({ values: changed, secrets: secretChanges }).then(() => setSecrets({}));
  };
  return (
    <Page title="Settings" description="Stored in the data directory. Environment variables override them (shown read-only)." error={error}>
      <form onSubmit={submit} className="settings-form">
        <fieldset>
          <legend>General</legend>
          {fields.map(([key, field]) => {
            const id = `setting-${key}`;
            const value = values[key];
            const env = (view.env as Record<string, string | undefined>)[key];
            const disabled = overridden.has(key);
            const hint = disabled ? `Set by ${env}` : env ? `Env: ${env}` : undefined;
            let control: ReactNode;
            if (field.type === 'boolean') {
              control = (
                <input
                  id={id}
                  type="checkbox"
                  checked={value === true}
                  disabled={disabled}
                  onChange={(e) => setValues({ ...values, [key]: e.target.checked })}
                />
              );
            } else if (field.enum) {
              control = (
                <select
                  id={id}
                  value={String(value ?? '')}
                  disabled={disabled}
                  onChange={(e) => setValues({ ...values, [key]: e.target.value })}
                >
                  {field.enum.map((option) => (
                    <option key={option} value={option}>
                      {option}
                    </option>
                  ))}
                </select>
              );
            } else if (field.type === 'number' || field.type === 'integer') {
              control = (
                <input
                  id={id}
                  type="number"
                  value={Number(value ?? 0)}
                  disabled={disabled}
                  onChange={(e) => setValues({ ...values, [key]: Number(e.target.value) })}
                />
              );
            } else {
              control = (
                <input
                  id={id}
                  value={String(value ?? '')}
                  disabled={disabled}
                  onChange={(e) => setValues({ ...values, [key]: e.target.value })}
                />
              );
            }
            return (
              <div key={key} className="field">
                <label htmlFor={id}>{field.title ?? key}</label>
                {control}
                {field.description ? <small className="muted">{field.description}</small> : null}
                {hint ? <small className="muted">{hint}</small> : null}
              </div>
            );
          })}
        </fieldset>
        <fieldset>
          <legend>Secrets</legend>
          {Object.entries(view.secrets)
            .filter(([name]) => name in secretLabels)
            .map(([name, state]) => (
              <div key={name} className="field">
                <label htmlFor={`secret-${name}`}>{secretLabels[name]}</label>
                <input
                  id={`secret-${name}`}
                  type="password"
                  autoComplete="off"
                  placeholder={state.set ? '•••••• (set; type to replace)' : 'not set'}
                  disabled={state.fromEnv}
                  value={secrets[name] ?? ''}
                  onChange={(e) => setSecrets({ ...secrets, [name]: e.target.value })}
                />
                <small className="muted">{state.fromEnv ? 'Set by the environment' : state.set ? 'Set' : 'Not set'}</small>
              </div>
            ))}
        </fieldset>
        <button type="submit" className="primary" disabled={saving}>
          Save settings
        </button>
        {saved ? <p role="status">Settings saved.</p> : null}
      </form>
    </Page>
  );
};
