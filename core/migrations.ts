import { anchorMigrations } from './audit/anchors/migrations.ts';
import { auditMigrations } from './audit/migrations.ts';
import { cecMigrations } from './cec/migrations.ts';
import { clauseMigrations } from './cec/clauses/migrations.ts';
import { dpaMigrations } from './cec/dpa/migrations.ts';
import { apiKeyMigrations } from './identity/api-keys/migrations.ts';
import { loginLinkMigrations } from './identity/login-links/migrations.ts';
import { samlOidcMigrations } from './identity/saml/migrations.ts';
import { scimMigrations } from './identity/scim/migrations.ts';
import { samlPostgresMigrations } from './identity/saml/postgres-migrations.ts';
import { scimPostgresMigrations } from './identity/scim/postgres-migrations.ts';
import { sessionMigrations } from './identity/sessions/migrations.ts';
import { ssoMigrations } from './identity/sso/migrations.ts';
import { piiMigrations } from './pii/migrations.ts';
import { postureMigrations } from './posture/migrations.ts';
import type { Migration } from './store/db.ts';
import { foundationMigrations } from './store/foundation-migrations.ts';
import type { PostgresMigration } from './store/postgres-migrate.ts';
import { postgresMigrationsOf } from './store/postgres-ddl.ts';

/**
 * THE order in which every schema change applies, for a fresh database and an upgraded one alike (beside the
 * operations table, at the composition root). Domains define their migrations in their own `migrations.ts`;
 * this list decides when each runs, on SQLite and on PostgreSQL (store/postgres-ddl.ts translates the DDL; a
 * migration that moves data also needs its PostgreSQL spelling). To add one: define it in your domain's file,
 * then APPEND its id here
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
  'cec/003-object-storage',
  'login-links/001-one-time-links',
  'saml/002-acs-handoffs',
  'saml/003-idp-initiated-opt-in',
  'anchors/001-claims',
  'scim/003-covering-attr-indexes',
  'scim/004-trigram-index',
  'scim/005-code-point-attr-indexes',
  'scim/006-user-element-rows',
  'scim/007-user-single-rows',
  'scim/008-single-rows-scan-order',
  'scim/009-later-element-rows-index',
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
  ...anchorMigrations,
];

/** Each id of `order` resolved to its migration; throws when an id is missing, repeated or not ordered. */
export const orderMigrations = (order: readonly string[], all: readonly Migration[]): readonly Migration[] => {
  const byId = new Map<string, Migration>();
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

/** The migrations that need their own PostgreSQL spelling (they move data); all others are translated. */
const spelledForPostgres: readonly PostgresMigration[] = [...scimPostgresMigrations, ...samlPostgresMigrations];
let postgres: readonly PostgresMigration[] | undefined;
/** The same list, same order, for PostgreSQL (store/postgres-ddl.ts); worked out on first use. */
export const postgresMigrations = (): readonly PostgresMigration[] => {
  postgres ??= postgresMigrationsOf(migrations, spelledForPostgres);
  return postgres;
};
