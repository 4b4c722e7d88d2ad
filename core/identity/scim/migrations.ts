import type { Migration } from '../../store/db.ts';

export const scimMigrations: readonly Migration[] = [];
