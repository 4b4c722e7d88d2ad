import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../app.ts';
import { anchorHead, listAnchors } from '../audit/anchors/store.ts';
import { testBackends } from '../test-support/backends.ts';
import { appPerDescribe } from './app-per-describe.test-support.ts';
import { dropAndRelink } from './anchors.test-support.ts';
import { SFCECClient } from './client.ts';
import { exportPublicKey, readTrustedPublicKey } from './ed25519.ts';
import { bundleAppPerTest, seedDays } from './test-support.ts';
import { startTestTsa, type TestTsa } from './timestamp/test-tsa.ts';
import { AnchorVerifier } from './verify-anchors.ts';
import { readAllEntries } from './zip-fixtures.ts';

let tsa: TestTsa;
let caPem: string[] = [];

beforeAll(async () => {
  tsa = await startTestTsa();
  caPem = [readFileSync(join(tsa.dir, 'ca.pem'), 'utf8')];
});
afterAll(async () => {
  await tsa.close();
});

/**
 * Verifies as an auditor would: on a fresh in-memory app (no HMAC key, no trust list of the producer), with the
 * TSA roots and the producer's public key (default: the app's own; null: none) given explicitly, as `svc verify --tsa-ca --public-key`.
 */
const verify = async (app: App, zip: string, certs: string[] | undefined, publicKeyPem?: string | null) => {
  const pem = publicKeyPem === undefined ? (await exportPublicKey(app)).pem : publicKeyPem;
  const auditor = createApp({ dataDir: ':memory:', env: {} });
  try {
    return await new SFCECClient({ app: auditor }).verifyBundle(zip, {
      ...(certs === undefined ? {} : { tsaCaPem: certs }),
      ...(pem === null ? {} : { publicKeys: [pem] }),
    });
  } finally {
    auditor.close();
  }
};

describe.each(testBackends)('anchors of the evidence stored on $name', (backend) => {
  const describeApp = appPerDescribe(backend, () => ({ SVC_TSA_URL: tsa.url }));
  let fixture: { app: App };
  let client: SFCECClient;
  beforeAll(async () => {
    fixture = describeApp();
    client = new SFCECClient({ app: fixture.app });
    // Three anchors: after day 1 (seq 6), after days 2-3 (seq 18), after day 4 (seq 24); day 5 stays unanchored.
    await seedDays(fixture.app, 'p', ['2026-03-01']);
    await anchorHead(fixture.app, 'p');
    await seedDays(fixture.app, 'p', ['2026-03-02', '2026-03-03']);
    await anchorHead(fixture.app, 'p');
    await seedDays(fixture.app, 'p', ['2026-03-04']);
    await anchorHead(fixture.app, 'p');
    await seedDays(fixture.app, 'p', ['2026-03-05']);
  });

  describe('chain anchors (openssl ts as the TSA)', () => {
    it('anchors a moved head once, and answers with the existing anchor when the head has not moved', async () => {
      const before = tsa.requests();
      const first = await anchorHead(fixture.app, 'p');
      expect(first).toMatchObject({ created: true, anchor: { seq: 30, kind: 'rfc3161' } });
      const again = await anchorHead(fixture.app, 'p');
      expect(again).toEqual({ created: false, anchor: first.anchor });
      expect(tsa.requests()).toBe(before + 1);
      expect((await listAnchors(fixture.app, 'p')).map((a) => a.seq)).toEqual([6, 18, 24, 30]);
      expect(await anchorHead(fixture.app, 'nobody')).toEqual({ created: false, anchor: null });
    });

    it('a bundle carries the anchors of its segment, the one before it and the first after it (with its bridge)', async () => {
      // Days 2-3 are seq 7..18: anchor 6 is just before, 18 inside, 24 the first after (bridge 19..24).
      const zip = (await client.buildBundle('p', ['2026-03-02', '2026-03-03'])).zip_path;
      const anchors = JSON.parse(((await readAllEntries(zip)).get('anchors.json') as Buffer).toString('utf8'));
      expect(anchors.anchors.map((a: { seq: number }) => a.seq)).toEqual([6, 18, 24]);
      expect(anchors.bridge.map((l: { seq: number }) => l.seq)).toEqual([19, 20, 21, 22, 23, 24]);
      const result = await verify(fixture.app, zip, caPem);
      expect(result.errors).toEqual([]);
      expect(result.checks.find((c) => c.name === 'anchors')).toMatchObject({ status: 'pass' });
      expect(result.anchors?.anchors.every((a) => a.token_valid === true && a.tsa !== null && a.time !== null)).toBe(true);
      expect(result.anchors?.lag).toMatchObject({ records: 12, anchored: 12, unanchored: 0 });
      expect(result.anchors?.lag.max_seconds).toBeGreaterThanOrEqual(0);
    });

    it('reports records with no anchor after them', async () => {
      await seedDays(fixture.app, 'p', ['2026-03-06']);
      const zip = (await client.buildBundle('p', ['2026-03-05', '2026-03-06'])).zip_path;
      const result = await verify(fixture.app, zip, caPem);
      expect(result.overall_valid).toBe(true);
      expect(result.anchors?.lag).toMatchObject({ records: 12, anchored: 6, unanchored: 6, first_unanchored_seq: 31 });
    });

    it('an anchor token from a TSA the auditor does not trust fails the anchors check', async () => {
      const other = await startTestTsa();
      try {
        const zip = (await client.buildBundle('p', ['2026-03-02', '2026-03-03'])).zip_path;
        const result = await verify(fixture.app, zip, [readFileSync(join(other.dir, 'ca.pem'), 'utf8')]);
        expect(result.checks.find((c) => c.name === 'anchors')?.status).toBe('fail');
        expect(result.overall_valid).toBe(false);
      } finally {
        await other.close();
      }
    });
  });

  describe('the insider rewrite', () => {
    const insiderApp = bundleAppPerTest(backend, () => ({ SVC_TSA_URL: tsa.url }));
    it('an insider rewrite after an anchor (drop a gate evaluation, re-link, re-sign, fresh timestamp) fails verification', async () => {
      const insider = insiderApp();
      const insiderClient = new SFCECClient({ app: insider.app });
      await seedDays(insider.app, 'q', ['2026-04-01', '2026-04-02']);
      await anchorHead(insider.app, 'q'); // seq 12
      await seedDays(insider.app, 'q', ['2026-04-03']);
      const genuine = (await insiderClient.buildBundle('q', ['2026-04-01', '2026-04-03'])).zip_path;
      expect((await verify(insider.app, genuine, caPem)).overall_valid).toBe(true);

      const gate = await insider.app.database.one(
        z.object({ seq: z.coerce.number() }),
        "SELECT seq FROM audit_records WHERE project_id = 'q' AND schema_key = 'gate_evaluations' ORDER BY seq LIMIT 1",
      );
      await dropAndRelink(insider.app, 'q', gate?.seq ?? 0);
      // Rebuilt with the real builder: HMAC and Ed25519 signed with the install's keys, a fresh TSA token.
      const rewritten = (await insiderClient.buildBundle('q', ['2026-04-01', '2026-04-03'])).zip_path;
      const { pem } = await exportPublicKey(insider.app);
      const result = await verify(insider.app, rewritten, caPem, pem);
      expect(result).toMatchObject({ manifest_valid: true, timestamp_valid: true, chain_valid: false, overall_valid: false });
      expect(result.checks.find((c) => c.name === 'chain')?.status).toBe('pass');
      expect(result.checks.find((c) => c.name === 'anchors')?.errors.join('\n')).toMatch(
        /anchor at seq 12 states head [0-9a-f]{64}, but the bundle's chain has [0-9a-f]{64} there: history differs/,
      );
    });
  });

  describe('Ed25519 checkpoints (no TSA configured)', () => {
    const localApp = bundleAppPerTest(backend);
    it('signs the head with the install key; verified with the trusted public key, unchecked without one', async () => {
      const local = localApp();
      const localClient = new SFCECClient({ app: local.app });
      await seedDays(local.app, 'e', ['2026-05-01']);
      const outcome = await anchorHead(local.app, 'e');
      expect(outcome.anchor?.kind).toBe('ed25519');
      const zip = (await localClient.buildBundle('e', ['2026-05-01', '2026-05-01'])).zip_path;
      const { pem } = await exportPublicKey(local.app);
      const trusted = await verify(local.app, zip, undefined, pem);
      expect(trusted.overall_valid).toBe(true);
      expect(trusted.anchors?.anchors[0]).toMatchObject({ seq: 6, kind: 'ed25519', token_valid: true, tsa: null });
      expect(trusted.anchors?.lag).toMatchObject({ records: 6, anchored: 6 });
      // A forged checkpoint signature under the trusted key's kid is invalid, not merely unchecked.
      const file = JSON.parse(((await readAllEntries(zip)).get('anchors.json') as Buffer).toString('utf8'));
      const jws = Buffer.from(file.anchors[0].token, 'base64').toString('ascii');
      file.anchors[0].token = Buffer.from(`${jws.slice(0, -4)}AAAA`).toString('base64');
      const forged = await AnchorVerifier.prepare(Buffer.from(JSON.stringify(file)), 'e', { trustedKeys: [readTrustedPublicKey(pem)] });
      expect(forged).toBeInstanceOf(AnchorVerifier);
      const segment = { first_seq: 1, last_seq: 6, anchor_prev_hash: '0'.repeat(64), head_hash: file.anchors[0].head_hash };
      const forgedResult = (forged as AnchorVerifier).finish(segment);
      expect(forgedResult.report.anchors[0]?.token_valid).toBe(false);
      expect(forgedResult.errors.join('\n')).toMatch(/checkpoint signature does not verify with the trusted key it names/);
      // With no trusted key the checkpoint is reported, not checked, and gives no lag.
      const untrusted = await verify(local.app, zip, undefined, null);
      expect(untrusted.anchors?.anchors[0]).toMatchObject({
        token_valid: null,
        note: expect.stringMatching(/not one of the trusted public keys/),
      });
      expect(untrusted.anchors?.lag).toMatchObject({ anchored: 0, unanchored: 6 });
    });
  });
});
