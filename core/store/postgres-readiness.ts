import { AppError } from '../errors.ts';

/**
 * The domains whose storage has not moved onto the asynchronous Database yet (docs/decisions.md, "PostgreSQL
 * foundation (issue 15)", the plan). Whoever moves a domain removes it here; when the list is empty, createApp
 * opens PostgreSQL instead of refusing. Until then a server with SVC_DATABASE_URL would keep half its data in a
 * SQLite file, which several instances cannot share: refusing is the honest answer.
 */
export const domainsNotYetOnPostgres: readonly string[] = [];

/** Throws the one-line start-up refusal when SVC_DATABASE_URL is set while domains remain SQLite-only. */
export const refuseUnfinishedPostgres = (databaseUrl: string): void => {
  if (databaseUrl === '' || domainsNotYetOnPostgres.length === 0) return;
  throw new AppError(
    'UNAVAILABLE',
    `SVC_DATABASE_URL: PostgreSQL support is being built; not yet moved: ${domainsNotYetOnPostgres.join(', ')}. Unset SVC_DATABASE_URL to run on the SQLite file in the data dir`,
  );
};
