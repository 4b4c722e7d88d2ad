import { createHash, timingSafeEqual } from 'node:crypto';
import { ulid } from 'ulid';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { AppError, describeZodError } from '../../errors.ts';
import type { Queryable } from '../../store/database.ts';
import { displayPrefix, generateApiKey, isWellFormedApiKey } from './format.ts';

export const keyTiers = ['free', 'api', 'admin'] as const;
export type KeyTier = (typeof keyTiers)[number];

/** What anyone may see of a key: never the secret, never its hash. */
export type ApiKeyInfo = {
  readonly id: string;
  readonly name: string;
  readonly tier: KeyTier;
  readonly scopes: readonly string[];
  readonly prefix: string;
  readonly owner_user_id: string | null;
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
  readonly last_used_at: string | null;
  readonly status: 'active' | 'expired' | 'revoked';
};

/** Returned exactly once, at creation or rotation. */
export type CreatedApiKey = ApiKeyInfo & { readonly secret: string };

export const createKeyInput = z.object({
  name: z.string().trim().min(1).max(100).default('API key'),
  tier: z.enum(keyTiers),
  scopes: z
    .array(z.enum(['scim']))
    .max(8)
    .default([]),
  expires_in_days: z.number().int().min(1).max(3650).optional(),
  owner_user_id: z.string().max(100).optional(),
});
export type CreateKeyInput = z.input<typeof createKeyInput>;

/** A row of `api_keys` as both back ends return it. */
const keyRow = z.object({
  id: z.string(),
  name: z.string(),
  tier: z.enum(keyTiers),
  scopes: z.string(),
  display_prefix: z.string(),
  secret_hash: z.string(),
  owner_user_id: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  rotated_to: z.string().nullable(),
});
type Row = z.infer<typeof keyRow>;
const storedScopes = z.array(z.string());
const selectKeys = `SELECT ${Object.keys(keyRow.shape).join(', ')} FROM api_keys`;

const lastUsedResolutionMs = 60_000;

const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

const toInfo = (row: Row, now: Date): ApiKeyInfo => ({
  id: row.id,
  name: row.name,
  tier: row.tier,
  scopes: storedScopes.parse(JSON.parse(row.scopes)),
  prefix: row.display_prefix,
  owner_user_id: row.owner_user_id,
  created_at: row.created_at,
  expires_at: row.expires_at,
  revoked_at: row.revoked_at,
  last_used_at: row.last_used_at,
  status: row.revoked_at !== null ? 'revoked' : row.expires_at !== null && new Date(row.expires_at) <= now ? 'expired' : 'active',
});

const addDays = (date: Date, days: number): string => new Date(date.getTime() + days * 86_400_000).toISOString();

/** A new key's row and secret, not stored yet: minted outside any transaction (hashing is not database work). */
export const mintApiKey = (input: CreateKeyInput, now: Date): { row: Row; secret: string } => {
  const parsed = createKeyInput.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION', `Invalid API key: ${describeZodError(parsed.error)}`, { cause: parsed.error });
  const valid = parsed.data;
  const secret = generateApiKey();
  return {
    secret,
    row: {
      id: `key-${ulid()}`,
      name: valid.name,
      tier: valid.tier,
      scopes: JSON.stringify(valid.scopes),
      display_prefix: displayPrefix(secret),
      secret_hash: hashSecret(secret),
      owner_user_id: valid.owner_user_id ?? null,
      created_at: now.toISOString(),
      expires_at: valid.expires_in_days === undefined ? null : addDays(now, valid.expires_in_days),
      revoked_at: null,
      last_used_at: null,
      rotated_to: null,
    },
  };
};

/** The INSERT of a minted key; `insertKeyParams` binds it. */
const insertKeySql = `INSERT INTO api_keys (id, name, tier, scopes, display_prefix, secret_hash, owner_user_id, created_at, expires_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const insertKeyParams = (row: Row) =>
  [row.id, row.name, row.tier, row.scopes, row.display_prefix, row.secret_hash, row.owner_user_id, row.created_at, row.expires_at] as const;

const storeKey = async (db: Queryable, minted: { row: Row; secret: string }, now: Date): Promise<CreatedApiKey> => {
  await db.run(insertKeySql, insertKeyParams(minted.row));
  return { ...toInfo(minted.row, now), secret: minted.secret };
};

/** Creates a key; the returned secret is the only copy that will ever exist (only its SHA-256 is stored). */
export const createApiKey = async (app: App, input: CreateKeyInput): Promise<CreatedApiKey> => {
  const now = app.now();
  return storeKey(app.database, mintApiKey(input, now), now);
};

const findRow = (db: Pick<Queryable, 'one'>, id: string): Promise<Row | undefined> => db.one(keyRow, `${selectKeys} WHERE id = ?`, [id]);

const getRow = async (db: Queryable, id: string): Promise<Row> => {
  const row = await findRow(db, id);
  if (row === undefined) throw new AppError('NOT_FOUND', `No API key ${id}`);
  return row;
};

export const listApiKeys = async (app: App): Promise<ApiKeyInfo[]> => {
  const now = app.now();
  return (await app.database.all(keyRow, `${selectKeys} ORDER BY created_at DESC, id DESC`)).map((row) => toInfo(row, now));
};

export const revokeApiKey = async (app: App, id: string): Promise<ApiKeyInfo> => {
  const now = app.now();
  await app.database.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now.toISOString(), id]);
  return toInfo(await getRow(app.database, id), now);
};

/** Why `row` cannot be rotated, or null when it can. */
const rotationRefusal = (row: Row, now: Date): AppError | null => {
  const status = toInfo(row, now).status;
  if (status !== 'active') return new AppError('CONFLICT', `API key ${row.id} is ${status}; only an active key can be rotated`);
  if (row.rotated_to !== null) {
    return new AppError('CONFLICT', `API key ${row.id} was already rotated to ${row.rotated_to}; rotate or revoke that key instead`);
  }
  return null;
};

/**
 * Issues a new secret with the same name, tier and scopes. The old key keeps working for `graceSeconds`
 * (default 0: revoked at once) so deployments can roll over without downtime. The old row is claimed with a
 * conditional UPDATE (still active, no successor), so of two rotations racing on two instances one wins and the
 * other gets the same 409 a late rotation gets.
 */
export const rotateApiKey = async (app: App, id: string, graceSeconds = 0): Promise<CreatedApiKey> => {
  const now = app.now();
  const old = await getRow(app.database, id);
  const refusal = rotationRefusal(old, now);
  if (refusal !== null) throw refusal;
  const minted = mintApiKey(
    {
      name: old.name,
      tier: old.tier,
      scopes: z.array(z.enum(['scim'])).parse(JSON.parse(old.scopes)),
      ...(old.owner_user_id === null ? {} : { owner_user_id: old.owner_user_id }),
      ...(old.expires_at === null
        ? {}
        : { expires_in_days: Math.max(1, Math.ceil((Date.parse(old.expires_at) - now.getTime()) / 86_400_000)) }),
    },
    now,
  );
  // The grace period may shorten the old key's life, never lengthen it.
  const requested = now.getTime() + graceSeconds * 1000;
  const graceEnd = new Date(old.expires_at === null ? requested : Math.min(requested, Date.parse(old.expires_at))).toISOString();
  const claim =
    graceSeconds > 0
      ? { sql: 'expires_at = ?, rotated_to = ?', params: [graceEnd, minted.row.id] }
      : { sql: 'revoked_at = ?, rotated_to = ?', params: [now.toISOString(), minted.row.id] };
  return app.database.transaction(async (tx) => {
    const claimed = await tx.run(
      `UPDATE api_keys SET ${claim.sql} WHERE id = ? AND rotated_to IS NULL AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
      [...claim.params, id, now.toISOString()],
    );
    if (claimed === 0) throw rotationRefusal(await getRow(tx, id), now) ?? new AppError('CONFLICT', `API key ${id} changed; try again`);
    return storeKey(tx, minted, now);
  });
};

/**
 * Revokes every active key issued to a (SCIM) user; returns how many. Called when a user is deactivated or
 * deleted, inside that change's transaction when the caller passes it as `db`.
 */
export const revokeKeysOfUser = (app: App, userId: string, db: Queryable = app.database): Promise<number> =>
  db.run('UPDATE api_keys SET revoked_at = ? WHERE owner_user_id = ? AND revoked_at IS NULL', [app.now().toISOString(), userId]);

/**
 * Checks a presented secret. Malformed keys are rejected before any look-up; the stored hash is compared in
 * constant time. Returns the active key or null (unknown, revoked or expired: the caller gets no hint which).
 * Read from the database on every call, never cached: a revocation on any instance counts from its commit. Read
 * through `unqueuedReads`: authentication never waits for a write to reach the disk (api_keys is written by
 * plain commits only).
 */
export const validateApiKey = async (app: App, secret: string): Promise<ApiKeyInfo | null> => {
  if (!isWellFormedApiKey(secret)) return null;
  const presented = hashSecret(secret);
  const row = await app.database.unqueuedReads.one(keyRow, `${selectKeys} WHERE secret_hash = ?`, [presented]);
  if (row === undefined) return null;
  if (!timingSafeEqual(Buffer.from(row.secret_hash, 'hex'), Buffer.from(presented, 'hex'))) return null;
  const now = app.now();
  const info = toInfo(row, now);
  if (info.status !== 'active') return null;
  // Stamp last use at most once a minute: a durable write on every request would cost an fsync each.
  if (row.last_used_at === null || now.getTime() - Date.parse(row.last_used_at) > lastUsedResolutionMs) {
    await app.database.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [now.toISOString(), row.id]);
  }
  return info;
};

/** Is the key behind an issued JWT still usable? (Revoking a key also kills the JWTs exchanged from it.) */
export const isKeyActive = async (app: App, id: string): Promise<boolean> => {
  const row = await findRow(app.database.unqueuedReads, id);
  return row !== undefined && toInfo(row, app.now()).status === 'active';
};
