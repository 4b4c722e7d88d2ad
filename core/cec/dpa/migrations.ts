import type { Migration } from '../../store/db.ts';

export const dpaMigrations: readonly Migration[] = [];
