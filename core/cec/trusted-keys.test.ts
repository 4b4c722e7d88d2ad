import { calculateJwkThumbprint } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../ops/dispatch.ts';
import { SFCECClient } from './client.ts';
import { exportPublicKey } from './ed25519.ts';
import { seedDays, tempApp } from './test-support.ts';

const auditor = tempApp();
const producer = tempApp();
const actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;
const call = (name: string, input: unknown) => dispatch(name, input, { app: auditor.app, actor });
let zip = '';

beforeAll(async () => {
  seedDays(producer.app, 'other', ['2026-04-01']);
  zip = (await new SFCECClient({ app: producer.app }).buildBundle('other', ['2026-04-01', '2026-04-01'])).zip_path;
});
afterAll(() => {
  auditor.cleanup();
  producer.cleanup();
});

describe('the app trust list: own key plus imported keys', () => {
  it('a bundle from another install fails until its key is imported, and again once removed (verify op)', async () => {
    const verify = async () => {
      const result = await call('cec.verifyBundle', { zip_path: zip });
      if (!result.ok) throw new Error(JSON.stringify(result));
      return result.value as { manifest_valid: boolean; errors: string[]; signatures: { ed25519: { key_id: string | null } } };
    };
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
    const published = await call('cec.publicKey', {});
    if (!published.ok) throw new Error('publicKey failed');
    const value = published.value as { thumbprint: string; jwk: Parameters<typeof calculateJwkThumbprint>[0] };
    expect(value.thumbprint).toBe(await calculateJwkThumbprint(value.jwk, 'sha256'));
  });
});
