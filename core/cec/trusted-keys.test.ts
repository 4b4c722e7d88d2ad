import { calculateJwkThumbprint } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { dispatch } from '../ops/dispatch.ts';
import { testBackends } from '../test-support/backends.ts';
import { SFCECClient } from './client.ts';
import { exportPublicKey } from './ed25519.ts';
import { bundleAppPerTest, seedDays, tempApp } from './test-support.ts';
import { listTrustedKeys } from './trusted-keys.ts';

const producer = tempApp();
const actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;
let zip = '';

beforeAll(async () => {
  await seedDays(producer.app, 'other', ['2026-04-01']);
  zip = (await new SFCECClient({ app: producer.app }).buildBundle('other', ['2026-04-01', '2026-04-01'])).zip_path;
});
afterAll(() => producer.cleanup());

describe.each(testBackends)('the app trust list on $name: own key plus imported keys', (backend) => {
  const t = bundleAppPerTest(backend);
  const call = (name: string, input: unknown, app: App = t().app) => dispatch(name, input, { app, actor });
  const verify = async (app: App = t().app) => {
    const result = await call('cec.verifyBundle', { zip_path: zip }, app);
    if (!result.ok) throw new Error(JSON.stringify(result));
    return result.value as { manifest_valid: boolean; errors: string[]; signatures: { ed25519: { key_id: string | null } } };
  };

  it('a bundle from another install fails until its key is imported, and again once removed (verify op)', async () => {
    const before = await verify();
    expect(before.manifest_valid).toBe(false);
    expect(before.errors.join('\n')).toMatch(/does not verify with any trusted public key/);
    const { pem, kid } = await exportPublicKey(producer.app);
    const imported = await call('cec.importTrustedKey', { public_key: pem, label: 'Producer install' });
    expect(imported).toMatchObject({ ok: true, value: { kid, label: 'Producer install' } });
    expect(await call('cec.listTrustedKeys', {})).toMatchObject({ ok: true, value: { items: [{ kid, label: 'Producer install' }] } });
    const after = await verify();
    expect(after.manifest_valid).toBe(true);
    expect(after.signatures.ed25519.key_id).toBe(kid);
    expect(await call('cec.removeTrustedKey', { kid })).toMatchObject({ ok: true });
    expect((await verify()).manifest_valid).toBe(false);
    expect(await call('cec.removeTrustedKey', { kid })).toMatchObject({ ok: false });
  });

  it('refuses a key that is not Ed25519, and publishes the own key with its RFC 7638 thumbprint', async () => {
    expect(await call('cec.importTrustedKey', { public_key: '{"kty":"RSA"}', label: 'x' })).toMatchObject({ ok: false });
    expect(await listTrustedKeys(t().app)).toEqual([]);
    const published = await call('cec.publicKey', {});
    if (!published.ok) throw new Error('publicKey failed');
    const value = published.value as { thumbprint: string; jwk: Parameters<typeof calculateJwkThumbprint>[0] };
    expect(value.thumbprint).toBe(await calculateJwkThumbprint(value.jwk, 'sha256'));
  });

  it('is one trust list for every instance: imported on one, trusted and removed on the other; concurrent imports keep one row', async () => {
    const second = await t().second();
    const { pem, kid } = await exportPublicKey(producer.app);
    const imports = await Promise.all(
      ['first', 'second', 'third', 'fourth'].map((label, i) =>
        call('cec.importTrustedKey', { public_key: pem, label }, i % 2 === 0 ? t().app : second),
      ),
    );
    expect(imports.every((result) => result.ok)).toBe(true);
    const keys = await listTrustedKeys(second);
    expect(keys.map((key) => key.kid)).toEqual([kid]);
    expect(['first', 'second', 'third', 'fourth']).toContain(keys[0]?.label);
    expect((await verify(second)).manifest_valid).toBe(true);
    expect(await call('cec.removeTrustedKey', { kid }, second)).toMatchObject({ ok: true });
    expect((await verify(t().app)).manifest_valid).toBe(false);
  });
});
