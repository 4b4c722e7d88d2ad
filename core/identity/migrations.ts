import type { Migration } from '../store/db.ts';
import { apiKeyMigrations } from './api-keys/migrations.ts';
import { scimMigrations } from './scim/migrations.ts';
import { ssoMigrations } from './sso/migrations.ts';
import { samlOidcMigrations } from './saml/migrations.ts';
import { sessionMigrations } from './sessions/migrations.ts';

export const identityMigrations: readonly Migration[] = [
  ...apiKeyMigrations,
  ...scimMigrations,
  ...ssoMigrations,
  ...samlOidcMigrations,
  ...sessionMigrations,
];
