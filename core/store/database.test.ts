import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databasePerTest, testBackends } from '../test-support/backends.ts';
import type { Database, Queryable, TransactionOptions } from './database.ts';
import { CommittedNotSynced } from './database.ts';
import { boundLimit } from './sql-text.ts';

const head = z.object({ head_seq: z.number().int(), head_hash: z.string() });
const record = z.object({ seq: z.number().int(), record_id: z.string(), prev_hash: z.string(), hash: z.string() });
const genesis = '0'.repeat(64);

/**
 * The chain-append shape every domain that numbers rows uses (audit records, anchors): read the project's head,
 * write the next row and the new head. `lock` chooses whether the read-then-write is serialised.
 */
const append = (db: Database, projectId: string, recordId: string, lock: boolean, options: TransactionOptions = {}): Promise<number> => {
  const work = async (tx: Queryable): Promise<number> => {
    const current = await tx.one(head, 'SELECT head_seq, head_hash FROM audit_chain_heads WHERE project_id = ?', [projectId]);
    const seq = (current?.head_seq ?? 0) + 1;
    const prev = current?.head_hash ?? genesis;
    const hash = createHash('sha256').update(`${prev}:${recordId}`).digest('hex');
    const now = new Date().toISOString();
    await tx.run(
      'INSERT INTO audit_records (project_id, seq, record_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [projectId, seq, recordId, 'test', now, now, '{}', prev, hash],
    );
    await tx.run(
      `INSERT INTO audit_chain_heads (project_id, head_seq, head_hash, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET head_seq = excluded.head_seq, head_hash = excluded.head_hash, updated_at = excluded.updated_at`,
      [projectId, seq, hash, now],
    );
    return seq;
  };
  return lock ? db.serialized(`chain:${projectId}`, work, options) : db.transaction(work, options);
};

/** Appends `count` records per writer, all writers at once, each writer several in flight. */
const appendConcurrently = async (writers: readonly Database[], count: number, lock: boolean): Promise<PromiseSettledResult<number>[]> =>
  Promise.allSettled(writers.flatMap((db, w) => Array.from({ length: count }, (_, i) => append(db, 'p1', `w${w}-${i}`, lock))));

describe.each(testBackends)('Database on $name', (backend) => {
  const t = databasePerTest(backend);

  it('binds ? placeholders (not inside literals), returns rows parsed by the schema, and counts changed rows', async () => {
    const db = t().database;
    expect(await db.run('INSERT INTO settings (key, value) VALUES (?, ?), (?, ?)', ['a', '1', 'b?', "it's ?"])).toBe(2);
    const rows = await db.all(
      z.object({ key: z.string(), value: z.string(), mark: z.string() }),
      "SELECT key, value, '?' AS mark FROM settings WHERE key <> ? ORDER BY key",
      ['zzz'],
    );
    expect(rows).toEqual([
      { key: 'a', value: '1', mark: '?' },
      { key: 'b?', value: "it's ?", mark: '?' },
    ]);
    // BIGINT and count(*) come back as numbers on both (pg's default is a string).
    expect(await db.one(z.object({ n: z.number() }), 'SELECT count(*) AS n FROM settings')).toEqual({ n: 2 });
    expect(await db.one(z.object({ n: z.number() }), 'SELECT 1 AS n FROM settings WHERE key = ?', ['missing'])).toBeUndefined();
    expect(await db.run('UPDATE settings SET value = ? WHERE key = ?', ['2', 'a'])).toBe(1);
    // RETURNING is the same on both.
    expect(await db.all(z.object({ key: z.string() }), 'DELETE FROM settings WHERE value = ? RETURNING key', ['2'])).toEqual([
      { key: 'a' },
    ]);
  });

  it('a bound LIMIT (boundLimit) limits, with and without OFFSET, and a negative one is no limit on SQLite only', async () => {
    const db = t().database;
    await db.run('INSERT INTO settings (key, value) VALUES (?, ?), (?, ?), (?, ?)', ['a', '1', 'b', '2', 'c', '3']);
    const keys = z.object({ key: z.string() });
    const page = (limit: number, offset: number) =>
      db.all(keys, `SELECT key FROM settings ORDER BY key LIMIT ${boundLimit} OFFSET ?`, [limit, offset]);
    expect(await page(2, 0)).toEqual([{ key: 'a' }, { key: 'b' }]);
    expect(await page(2, 2)).toEqual([{ key: 'c' }]);
    expect(await db.all(keys, `SELECT key FROM settings WHERE key > ? ORDER BY key LIMIT ${boundLimit}`, ['a', 1])).toEqual([{ key: 'b' }]);
    // Both back ends keep their own meaning of a negative LIMIT, as a bare placeholder had it.
    if (backend.name === 'sqlite') expect(await page(-1, 1)).toHaveLength(2);
    else await expect(page(-1, 1)).rejects.toThrow(/negative/i);
  });

  it('a row that does not match its schema is an error, not a cast', async () => {
    await t().database.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['k', 'v']);
    await expect(t().database.one(z.object({ value: z.number() }), 'SELECT value FROM settings')).rejects.toThrow(/expected number/i);
  });

  it('a transaction commits what it wrote when it resolves and nothing when it rejects', async () => {
    const db = t().database;
    await db.transaction(async (tx) => {
      await tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['kept', '1']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['lost', '1']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const keys = await db.all(z.object({ key: z.string() }), 'SELECT key FROM settings ORDER BY key');
    expect(keys).toEqual([{ key: 'kept' }]);
  });

  it('a transaction with syncOffThread commits and rolls back the same way, and serialized appends with it stay one chain', async () => {
    const db = t().database;
    await db.transaction((tx) => tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['kept', '1']), { syncOffThread: true });
    await expect(
      db.transaction(
        async (tx) => {
          await tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['lost', '1']);
          throw new Error('changed my mind');
        },
        { syncOffThread: true },
      ),
    ).rejects.toThrow('changed my mind');
    expect(await db.all(z.object({ key: z.string() }), 'SELECT key FROM settings ORDER BY key')).toEqual([{ key: 'kept' }]);
    const seqs = await Promise.all(Array.from({ length: 20 }, (_, i) => append(db, 'p1', `r${i}`, true, { syncOffThread: true })));
    expect(seqs.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('serialized appends from two instances (each with several in flight) leave one chain: no gap, no duplicate, no fork', async () => {
    const writers = [t().database, await t().connect()];
    const results = await appendConcurrently(writers, 100, true);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const rows = await t().database.all(
      record,
      'SELECT seq, record_id, prev_hash, hash FROM audit_records WHERE project_id = ? ORDER BY seq',
      ['p1'],
    );
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.record_id)).size).toBe(200);
    expect(rows.map((row) => row.prev_hash)).toEqual([genesis, ...rows.slice(0, -1).map((row) => row.hash)]);
    const acknowledged = results.map((r) => (r.status === 'fulfilled' ? r.value : 0)).sort((a, b) => a - b);
    expect(acknowledged).toEqual(rows.map((r) => r.seq));
  });

  it('unqueuedReads see what was committed, and only read', async () => {
    const db = t().database;
    await db.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['committed', '1']);
    const keys = z.object({ key: z.string() });
    expect(await db.unqueuedReads.all(keys, 'SELECT key FROM settings')).toEqual([{ key: 'committed' }]);
    await db.run('DELETE FROM settings WHERE key = ?', ['committed']);
    expect(await db.unqueuedReads.one(keys, 'SELECT key FROM settings WHERE key = ?', ['committed'])).toBeUndefined();
    if (backend.name === 'sqlite') {
      // A second, read-only connection: a write through it is refused, never applied behind the writer's back.
      await expect(db.unqueuedReads.all(keys, "INSERT INTO settings (key, value) VALUES ('side', '1')")).rejects.toThrow(/readonly/i);
    }
  });

  it('unqueuedReads never see the write of a transaction still open, nor write inside it', async () => {
    const db = t().database;
    const keys = z.object({ key: z.string() });
    const seen = await db.transaction(async (tx) => {
      await tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['pending', '1']);
      const during = await db.unqueuedReads.all(keys, 'SELECT key FROM settings');
      if (backend.name === 'sqlite') {
        await expect(db.unqueuedReads.all(keys, "INSERT INTO settings (key, value) VALUES ('side', '1')")).rejects.toThrow(/readonly/i);
      }
      return during;
    });
    expect(seen).toEqual([]);
    expect(await db.unqueuedReads.all(keys, 'SELECT key FROM settings')).toEqual([{ key: 'pending' }]);
  });
});

describe.each(testBackends.filter((b) => b.name === 'postgres'))('Database on $name without serialisation', (backend) => {
  it('the same appends in plain transactions collide (the check above can fail)', async () => {
    const opened = await backend.open();
    try {
      const results = await appendConcurrently([opened.database, await opened.connect()], 100, false);
      // Two transactions read the same head and both write seq n+1: the primary key refuses one of them.
      expect(results.filter((r) => r.status === 'rejected').length).toBeGreaterThan(0);
    } finally {
      await opened.close();
    }
  });
});

describe.each(testBackends.filter((b) => b.name === 'sqlite'))(
  'Database on $name, sharing the connection with synchronous code',
  (backend) => {
    const t = databasePerTest(backend);

    it('a call outside a transaction waits until the open one ends, so it never lands inside it', async () => {
      const db = t().database;
      const order: string[] = [];
      const tx = db.transaction(async (q) => {
        await q.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['in-tx', '1']);
        order.push('tx wrote');
        await q.run('UPDATE settings SET value = ? WHERE key = ?', ['2', 'in-tx']);
        throw new Error('rolled back');
      });
      const outside = db.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['outside', '1']).then(() => order.push('outside wrote'));
      await expect(tx).rejects.toThrow('rolled back');
      await outside;
      expect(order).toEqual(['tx wrote', 'outside wrote']);
      // The rollback took only the transaction's row: the outside write was not part of it.
      expect(await db.all(z.object({ key: z.string() }), 'SELECT key FROM settings')).toEqual([{ key: 'outside' }]);
    });

    /** Commits the row `committed` with syncOffThread; `order` hears 'transaction resolved' once it is durable. */
    const commitOffThread = (db: Database, order: string[]): Promise<unknown> =>
      db
        .transaction((tx) => tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['committed', '1']), { syncOffThread: true })
        .then(() => order.push('transaction resolved'));

    const synchronousLevel = async (db: Database): Promise<number | undefined> =>
      (await db.one(z.object({ synchronous: z.number() }), 'PRAGMA synchronous'))?.synchronous;

    it('syncOffThread leaves the connection at synchronous = FULL after a commit, a rollback and a failed BEGIN', async () => {
      const db = t().database;
      expect(await synchronousLevel(db)).toBe(2);
      await db.transaction((tx) => tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['a', '1']), { syncOffThread: true });
      expect(await synchronousLevel(db)).toBe(2);
      await expect(
        db.transaction(
          async (tx) => {
            await tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['a', 'duplicate']);
          },
          { syncOffThread: true },
        ),
      ).rejects.toThrow(/UNIQUE/);
      expect(await synchronousLevel(db)).toBe(2);
    });

    it('syncOffThread: a read that runs during the WAL fsync (on the thread pool) returns only once it is done', async () => {
      const db = t().database;
      const order: string[] = [];
      const committed = commitOffThread(db, order);
      const reader = db.all(z.object({ key: z.string() }), 'SELECT key FROM settings').then((rows) => {
        order.push('read');
        return rows;
      });
      // A plain COMMIT ends within this turn and the read follows at once; the fsync takes thread-pool round trips.
      await new Promise((resolve) => setImmediate(resolve));
      expect(order).toEqual([]);
      await committed;
      expect(await reader).toEqual([{ key: 'committed' }]);
    });

    it("syncOffThread: the next transaction commits during the previous one's fsync", async () => {
      const db = t().database;
      const order: string[] = [];
      const insert = (key: string) =>
        db.transaction(
          async (tx) => {
            order.push(`${key} ran`);
            await tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', [key, '1']);
          },
          { syncOffThread: true },
        );
      const first = insert('first').then(() => order.push('first resolved'));
      const second = insert('second').then(() => order.push('second resolved'));
      await Promise.all([first, second]);
      // One at a time before: the second began after the first's fsync. Now it overlaps it (the two resolve in
      // either order, each once what it committed is on disk).
      expect(order.slice(0, 2)).toEqual(['first ran', 'second ran']);
      expect(order.slice(2).sort()).toEqual(['first resolved', 'second resolved']);
      expect(await db.all(z.object({ key: z.string() }), 'SELECT key FROM settings ORDER BY key')).toEqual([
        { key: 'first' },
        { key: 'second' },
      ]);
    });

    it('syncOffThread: unqueuedReads answer while the fsync runs (authentication does not wait for evidence)', async () => {
      const db = t().database;
      const order: string[] = [];
      const committed = commitOffThread(db, order);
      await new Promise((resolve) => setImmediate(resolve)); // committed; its fsync is on the thread pool
      expect(await db.unqueuedReads.all(z.object({ key: z.string() }), 'SELECT key FROM settings')).toEqual([{ key: 'committed' }]);
      order.push('read');
      await committed;
      expect(order).toEqual(['read', 'transaction resolved']);
    });

    it.runIf(existsSync('/proc/self/fd'))('syncOffThread: the WAL is opened for its fsync only, never left open', async () => {
      const db = t().database;
      const openFiles = (): number => readdirSync('/proc/self/fd').length;
      await db.transaction((tx) => tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['warm', '1']), { syncOffThread: true });
      const before = openFiles();
      for (let i = 0; i < 5; i++) {
        await db.transaction((tx) => tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', [`k${i}`, '1']), { syncOffThread: true });
      }
      expect(openFiles()).toBe(before);
    });

    it('syncOffThread: a WAL that cannot be fsynced fails the call with CommittedNotSynced (committed, so not to be retried)', async () => {
      const db = t().database;
      const files = await db.all(z.object({ name: z.string(), file: z.string() }), 'PRAGMA database_list');
      const file = files.find((f) => f.name === 'main')?.file ?? '';
      await expect(
        db.transaction(
          async (tx) => {
            await tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['committed', '1']);
            rmSync(`${file}-wal`); // SQLite keeps writing to the open file; the fsync opens it by name
          },
          { syncOffThread: true },
        ),
      ).rejects.toThrow(CommittedNotSynced);
      expect(await db.all(z.object({ key: z.string() }), 'SELECT key FROM settings')).toEqual([{ key: 'committed' }]);
    });

    it('a transaction that awaits other work (a timer) is rolled back with a message saying why', async () => {
      const db = t().database;
      await expect(
        db.transaction(async (q) => {
          await q.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['slow', '1']);
          await sleep(5);
        }),
      ).rejects.toThrow(/awaited work other than database calls/);
      expect(await db.all(z.object({ key: z.string() }), 'SELECT key FROM settings')).toEqual([]);
      // The connection is usable afterwards.
      await db.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['after', '1']);
    });
  },
);

describe('SQL in the core', () => {
  it('never binds a bare LIMIT ? (SQLite prepares such a statement again on every run): it uses boundLimit', () => {
    const core = new URL('../', import.meta.url);
    const bare = readdirSync(core, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => /\bLIMIT\s+\(?\s*\?/.test(readFileSync(new URL(file, core), 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '')));
    expect(bare).toEqual([]);
  });
});
