import { auditMigrations } from '../audit/migrations.ts';
import { clauseMigrations } from '../cec/clauses/migrations.ts';
import { cecMigrations } from '../cec/migrations.ts';
import { dpaMigrations } from '../cec/dpa/migrations.ts';
import { identityMigrations } from '../identity/migrations.ts';
import { piiMigrations } from '../pii/migrations.ts';
import { postureMigrations } from '../posture/migrations.ts';
import { foundationMigrations } from './foundation-migrations.ts';
import type { Migration } from './db.ts';

/** Every domain's migrations, in the order they apply. Each domain numbers its own. */
export const allMigrations: readonly Migration[] = [
  ...foundationMigrations,
  ...auditMigrations,
  ...cecMigrations,
  ...clauseMigrations,
  ...dpaMigrations,
  ...identityMigrations,
  ...piiMigrations,
  ...postureMigrations,
];
