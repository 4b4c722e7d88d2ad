import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { connectPostgres } from '../store/postgres-database.ts';
import { postgresBinDir, sharedServer } from './postgres-server.ts';
import type pg from 'pg';

/**
 * Why the PostgreSQL half of the suite cannot run here, or undefined when it can. CI sets
 * TEST_REQUIRE_POSTGRES=1 (.ci/run), which turns a missing server into a failure instead of a skip.
 */
export const postgresUnavailable: string | undefined =
  postgresBinDir() === undefined && process.env['TEST_REQUIRE_POSTGRES'] !== '1'
    ? 'PostgreSQL tests skipped: no initdb/postgres on PATH or in /usr/lib/postgresql/*/bin (apt-get install postgresql; .ci/run does)'
    : undefined;
if (postgresUnavailable !== undefined) console.warn(postgresUnavailable);

let admin: Promise<{ url: URL; pool: pg.Pool }> | undefined;
const adminPool = (): Promise<{ url: URL; pool: pg.Pool }> => {
  admin ??= (async () => {
    const info = await sharedServer(inject('svcPostgresRoot'));
    if ('error' in info) throw new Error(`test PostgreSQL server: ${info.error}`);
    return { url: new URL(info.url), pool: await connectPostgres(info.url, { source: 'test server', max: 2 }) };
  })();
  return admin;
};

/** The URL of a new, empty database on the run's server: every test gets its own. */
export const freshPostgresUrl = async (): Promise<string> => {
  const { url, pool } = await adminPool();
  const name = `t_${randomBytes(8).toString('hex')}`;
  await pool.query(`CREATE DATABASE ${name}`);
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return fresh.toString();
};

/** The run's server's URL with a wrong password (authentication failure tests). */
export const wrongPasswordUrl = async (): Promise<string> => {
  const wrong = new URL((await adminPool()).url);
  wrong.password = 'not-the-password';
  return wrong.toString();
};
