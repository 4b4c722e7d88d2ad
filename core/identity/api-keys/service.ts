import { createHash, timingSafeEqual } from 'node:crypto';
import { ulid } from 'ulid';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { AppError } from '../../errors.ts';
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

type Row = {
  id: string;
  name: string;
  tier: KeyTier;
  scopes: string;
  display_prefix: string;
  secret_hash: string;
  owner_user_id: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  rotated_to: string | null;
};

const lastUsedResolutionMs = 60_000;

const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

const toInfo = (row: Row, now: Date): ApiKeyInfo => ({
  id: row.id,
  name: row.name,
  tier: row.tier,
  scopes: JSON.parse(row.scopes) as string[],
  prefix: row.display_prefix,
  owner_user_id: row.owner_user_id,
  created_at: row.created_at,
  expires_at: row.expires_at,
  revoked_at: row.revoked_at,
  last_used_at: row.last_used_at,
  status: row.revoked_at !== null ? 'revoked' : row.expires_at !== null && new Date(row.expires_at) <= now ? 'expired' : 'active',
});

const addDays = (date: Date, days: number): string => new Date(date.getTime() + days * 86_400_000).toISOString();

const insertKey = (app: App, input: z.output<typeof createKeyInput>): CreatedApiKey => {
  const secret = generateApiKey();
  const now = app.now();
  const row: Row = {
    id: `key-${ulid()}`,
    name: input.name,
    tier: input.tier,
    scopes: JSON.stringify(input.scopes),
    display_prefix: displayPrefix(secret),
    secret_hash: hashSecret(secret),
    owner_user_id: input.owner_user_id ?? null,
    created_at: now.toISOString(),
    expires_at: input.expires_in_days === undefined ? null : addDays(now, input.expires_in_days),
    revoked_at: null,
    last_used_at: null,
    rotated_to: null,
  };
  app.db
    .prepare(
      `INSERT INTO api_keys (id, name, tier, scopes, display_prefix, secret_hash, owner_user_id, created_at, expires_at)
       VALUES (@id, @name, @tier, @scopes, @display_prefix, @secret_hash, @owner_user_id, @created_at, @expires_at)`,
    )
    .run(row);
  return { ...toInfo(row, now), secret };
};

/** Creates a key; the returned secret is the only copy that will ever exist (only its SHA-256 is stored). */
export const createApiKey = (app: App, input: CreateKeyInput): CreatedApiKey => insertKey(app, createKeyInput.parse(input));

const getRow = (app: App, id: string): Row => {
  const row = app.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as Row | undefined;
  if (row === undefined) throw new AppError('NOT_FOUND', `No API key ${id}`);
  return row;
};

export const listApiKeys = (app: App): ApiKeyInfo[] => {
  const now = app.now();
  return (app.db.prepare('SELECT * FROM api_keys ORDER BY created_at DESC, id DESC').all() as Row[]).map((row) => toInfo(row, now));
};

export const revokeApiKey = (app: App, id: string): ApiKeyInfo => {
  const row = getRow(app, id);
  if (row.revoked_at === null) {
    app.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(app.now().toISOString(), id);
  }
  return toInfo(getRow(app, id), app.now());
};

/**
 * Issues a new secret with the same name, tier and scopes. The old key keeps working for `graceSeconds`
 * (default 0: revoked at once) so deployments can roll over without downtime.
 */
export const rotateApiKey = (app: App, id: string, graceSeconds = 0): CreatedApiKey =>
  app.db.transaction((): CreatedApiKey => {
    const oldRow = getRow(app, id);
    const old = toInfo(oldRow, app.now());
    if (old.status !== 'active') throw new AppError('CONFLICT', `API key ${id} is ${old.status}; only an active key can be rotated`);
    if (oldRow.rotated_to !== null) {
      throw new AppError('CONFLICT', `API key ${id} was already rotated to ${oldRow.rotated_to}; rotate or revoke that key instead`);
    }
    const created = insertKey(app, {
      name: old.name,
      tier: old.tier,
      scopes: [...old.scopes] as ['scim'],
      ...(old.owner_user_id === null ? {} : { owner_user_id: old.owner_user_id }),
      ...(old.expires_at === null
        ? {}
        : { expires_in_days: Math.max(1, Math.ceil((new Date(old.expires_at).getTime() - app.now().getTime()) / 86_400_000)) }),
    });
    const now = app.now();
    if (graceSeconds > 0) {
      // The grace period may shorten the old key's life, never lengthen it.
      const requested = now.getTime() + graceSeconds * 1000;
      const graceEnd = new Date(old.expires_at === null ? requested : Math.min(requested, Date.parse(old.expires_at))).toISOString();
      app.db.prepare('UPDATE api_keys SET expires_at = ?, rotated_to = ? WHERE id = ?').run(graceEnd, created.id, id);
    } else {
      app.db.prepare('UPDATE api_keys SET revoked_at = ?, rotated_to = ? WHERE id = ?').run(now.toISOString(), created.id, id);
    }
    return created;
  })();

/** Revokes every active key issued to a (SCIM) user; returns how many. Called when a user is deactivated or deleted. */
export const revokeKeysOfUser = (app: App, userId: string): number =>
  app.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE owner_user_id = ? AND revoked_at IS NULL').run(app.now().toISOString(), userId)
    .changes;

/**
 * Checks a presented secret. Malformed keys are rejected before any look-up; the stored hash is compared in
 * constant time. Returns the active key or null (unknown, revoked or expired: the caller gets no hint which).
 */
export const validateApiKey = (app: App, secret: string): ApiKeyInfo | null => {
  if (!isWellFormedApiKey(secret)) return null;
  const presented = hashSecret(secret);
  const row = app.db.prepare('SELECT * FROM api_keys WHERE secret_hash = ?').get(presented) as Row | undefined;
  if (row === undefined) return null;
  if (!timingSafeEqual(Buffer.from(row.secret_hash, 'hex'), Buffer.from(presented, 'hex'))) return null;
  const info = toInfo(row, app.now());
  if (info.status !== 'active') return null;
  // Stamp last use at most once a minute: a durable write on every request would cost an fsync each.
  const now = app.now();
  if (row.last_used_at === null || now.getTime() - new Date(row.last_used_at).getTime() > lastUsedResolutionMs) {
    app.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now.toISOString(), row.id);
  }
  return info;
};

/** Is the key behind an issued JWT still usable? (Revoking a key also kills the JWTs exchanged from it.) */
export const isKeyActive = (app: App, id: string): boolean => {
  const row = app.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as Row | undefined;
  return row !== undefined && toInfo(row, app.now()).status === 'active';
};
