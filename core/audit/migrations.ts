import type { Migration } from '../store/db.ts';

export const auditMigrations: readonly Migration[] = [];
