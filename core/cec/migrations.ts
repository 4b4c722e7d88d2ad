import type { Migration } from '../store/db.ts';

export const cecMigrations: readonly Migration[] = [];
