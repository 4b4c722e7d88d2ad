import type { PostgresMigration } from '../../store/postgres-migrate.ts';
import { loginLinksTable } from './migrations.ts';

export const loginLinkPostgresMigrations: readonly PostgresMigration[] = [{ id: 'login-links/001-one-time-links', up: loginLinksTable }];
