import type { Migration } from '../../store/db.ts';

export const ssoMigrations: readonly Migration[] = [];
