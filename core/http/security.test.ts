import { describe, expect, it } from 'vitest';
import { allowedHosts, type OriginPolicy } from './security.ts';

describe('allowedHosts', () => {
  it('follows the policy origin when it changes (port 0 is known only after listen) and keeps the extra hosts', () => {
    let origin = 'http://127.0.0.1:0';
    const policy: OriginPolicy = { origin: () => origin, extraHosts: ['Proxy.example:443'] };
    expect([...allowedHosts(policy)].sort()).toEqual(['127.0.0.1:0', '[::1]:0', 'localhost:0', 'proxy.example:443']);
    origin = 'http://127.0.0.1:8765';
    expect(allowedHosts(policy).has('localhost:8765')).toBe(true);
    expect(allowedHosts(policy).has('localhost:0')).toBe(false);
  });

  it('keeps two policies apart', () => {
    const a: OriginPolicy = { origin: () => 'http://127.0.0.1:1111', extraHosts: [] };
    const b: OriginPolicy = { origin: () => 'http://127.0.0.1:1111', extraHosts: ['team.example:8443'] };
    expect(allowedHosts(a).has('team.example:8443')).toBe(false);
    expect(allowedHosts(b).has('team.example:8443')).toBe(true);
    expect(allowedHosts(a).has('team.example:8443')).toBe(false);
  });
});
