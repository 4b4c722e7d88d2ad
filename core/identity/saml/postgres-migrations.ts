import type { PostgresMigration } from '../../store/postgres-migrate.ts';

/** saml/003 edits stored JSON with SQLite's json_set, which store/postgres-ddl.ts cannot translate. */
export const samlPostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'saml/003-idp-initiated-opt-in',
    up: `UPDATE saml_config SET json = jsonb_set(json::jsonb, '{allowIdpInitiated}', 'false'::jsonb)::text`,
  },
];
