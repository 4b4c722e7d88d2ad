import type { Migration } from '../../store/db.ts';

export const samlOidcMigrations: readonly Migration[] = [];
