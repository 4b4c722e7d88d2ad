import { auditMigrations } from './audit/migrations.ts';
import { auditPostgresMigrations } from './audit/postgres-migrations.ts';
import { clauseMigrations } from './cec/clauses/migrations.ts';
import { clausePostgresMigrations } from './cec/clauses/postgres-migrations.ts';
import { dpaMigrations } from './cec/dpa/migrations.ts';
import { dpaPostgresMigrations } from './cec/dpa/postgres-migrations.ts';
import { cecMigrations } from './cec/migrations.ts';
import { cecPostgresMigrations } from './cec/postgres-migrations.ts';
import { apiKeyMigrations } from './identity/api-keys/migrations.ts';
import { apiKeyPostgresMigrations } from './identity/api-keys/postgres-migrations.ts';
import { loginLinkMigrations } from './identity/login-links/migrations.ts';
import { loginLinkPostgresMigrations } from './identity/login-links/postgres-migrations.ts';
import { samlOidcMigrations } from './identity/saml/migrations.ts';
import { samlOidcPostgresMigrations } from './identity/saml/postgres-migrations.ts';
import { scimMigrations } from './identity/scim/migrations.ts';
import { scimPostgresMigrations } from './identity/scim/postgres-migrations.ts';
import { sessionMigrations } from './identity/sessions/migrations.ts';
import { sessionPostgresMigrations } from './identity/sessions/postgres-migrations.ts';
import { ssoMigrations } from './identity/sso/migrations.ts';
import { ssoPostgresMigrations } from './identity/sso/postgres-migrations.ts';
import { piiMigrations } from './pii/migrations.ts';
import { piiPostgresMigrations } from './pii/postgres-migrations.ts';
import { postureMigrations } from './posture/migrations.ts';
import { posturePostgresMigrations } from './posture/postgres-migrations.ts';
import type { Migration } from './store/db.ts';
import { foundationMigrations, foundationPostgresMigrations } from './store/foundation-migrations.ts';
import type { PostgresMigration } from './store/postgres-migrate.ts';

/**
 * THE order in which every schema change applies, for a fresh database and an upgraded one alike (beside the
 * operations table, at the composition root). Domains define their migrations in their own `migrations.ts`;
 * this list decides when each runs, on SQLite and on PostgreSQL alike (each domain's `postgres-migrations.ts`
 * holds PostgreSQL's spelling of the same ids). To add one: define it in both files, then APPEND its id here
 * (never insert or reorder: databases in the field applied the ones above in this order;
 * core/migrations.test.ts pins it).
 */
export const migrationOrder: readonly string[] = [
  'foundation/001-settings',
  'audit/001-records',
  'cec/001-bundles',
  'dpa/001-documents',
  'api-keys/001-api-keys',
  'scim/001-users-groups',
  'sso/001-sessions',
  'saml/001-config-requests-replay',
  'oidc/001-pending-logins',
  'pii/001-state',
  'scim/002-user-attribute-index',
  'cec/002-trusted-keys',
  'clauses/001-cadences',
  'posture/001-samples',
  'sessions/001-sessions',
  'sessions/002-login-browser-binding',
  'audit/002-clear-persistent-staging',
  'audit/003-anchors',
  'login-links/001-one-time-links',
];

const defined: readonly Migration[] = [
  ...foundationMigrations,
  ...auditMigrations,
  ...cecMigrations,
  ...dpaMigrations,
  ...apiKeyMigrations,
  ...scimMigrations,
  ...ssoMigrations,
  ...samlOidcMigrations,
  ...piiMigrations,
  ...clauseMigrations,
  ...postureMigrations,
  ...sessionMigrations,
  ...loginLinkMigrations,
];

const definedPostgres: readonly PostgresMigration[] = [
  ...foundationPostgresMigrations,
  ...auditPostgresMigrations,
  ...cecPostgresMigrations,
  ...dpaPostgresMigrations,
  ...apiKeyPostgresMigrations,
  ...scimPostgresMigrations,
  ...ssoPostgresMigrations,
  ...samlOidcPostgresMigrations,
  ...piiPostgresMigrations,
  ...clausePostgresMigrations,
  ...posturePostgresMigrations,
  ...sessionPostgresMigrations,
  ...loginLinkPostgresMigrations,
];

/** Each id of `order` resolved to its migration; throws when an id is missing, repeated or not ordered. */
export const orderMigrations = <M extends { readonly id: string }>(order: readonly string[], all: readonly M[]): readonly M[] => {
  const byId = new Map<string, M>();
  for (const migration of all) {
    if (byId.has(migration.id)) throw new TypeError(`Migration ${migration.id} is defined twice`);
    byId.set(migration.id, migration);
  }
  const unordered = [...byId.keys()].filter((id) => !order.includes(id));
  if (unordered.length > 0) throw new TypeError(`Migrations not in core/migrations.ts migrationOrder: ${unordered.join(', ')}`);
  return order.map((id, index) => {
    const migration = byId.get(id);
    if (migration === undefined) throw new TypeError(`migrationOrder names ${id}, which no domain defines`);
    if (order.indexOf(id) !== index) throw new TypeError(`migrationOrder lists ${id} twice`);
    return migration;
  });
};

export const migrations: readonly Migration[] = orderMigrations(migrationOrder, defined);
/** The same order on PostgreSQL: a migration without its PostgreSQL spelling fails here, at import. */
export const postgresMigrations: readonly PostgresMigration[] = orderMigrations(migrationOrder, definedPostgres);
