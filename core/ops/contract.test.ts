import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../app.ts';
import { tiers } from './define.ts';
import { dispatch } from './dispatch.ts';
import { operations } from './table.ts';

const app = createApp({ dataDir: ':memory:', env: {} });
afterAll(() => app.close());
const admin = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;

describe('the operations table', () => {
  const entries = Object.entries(operations);

  it('names every op <domain>.<verb> and declares schema, access, tier, summary and handler', () => {
    expect(entries.length).toBeGreaterThan(5);
    for (const [name, op] of entries) {
      expect(name).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
      expect(op.input).toBeInstanceOf(z.ZodType);
      expect(['read', 'write']).toContain(op.access);
      expect(tiers).toContain(op.tier);
      expect(op.summary.length).toBeGreaterThan(5);
      expect(typeof op.handler).toBe('function');
    }
  });

  it('has no two REST bindings on the same method and path', () => {
    const seen = new Set<string>();
    for (const [, op] of entries) {
      const http = (op as { http?: { method: string; path: string } }).http;
      if (!http) continue;
      const key = `${http.method} ${http.path}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  it('only health routes are public', () => {
    const publicOps = entries.filter(([, op]) => op.tier === 'public').map(([name]) => name);
    expect(publicOps.sort()).toEqual(['auth.exchange', 'svc.ready', 'svc.status']);
  });

  it('answers an unknown name with NOT_FOUND and bad input with VALIDATION', async () => {
    expect(await dispatch('no.such', {}, { app, actor: admin })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await dispatch('__proto__', {}, { app, actor: admin })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await dispatch('keys.create', { tier: 7 }, { app, actor: admin })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
  });

  it('refuses anonymous callers and too-low tiers before validating input', async () => {
    const anonymous = { kind: 'anonymous', id: 'a', tier: 'public', scopes: [] } as const;
    const free = { kind: 'apiKey', id: 'k', tier: 'free', scopes: [] } as const;
    expect(await dispatch('keys.list', {}, { app, actor: anonymous })).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    expect(await dispatch('keys.list', {}, { app, actor: free })).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('hides unexpected errors behind a generic INTERNAL message', async () => {
    const broken = createApp({ dataDir: ':memory:', env: {} });
    broken.db.close();
    expect(await dispatch('keys.list', {}, { app: broken, actor: admin })).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: 'Internal error' },
    });
  });
});
