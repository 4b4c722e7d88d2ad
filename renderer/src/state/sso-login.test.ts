import { describe, expect, it } from 'vitest';
import { fakeTransport, ok } from '../test/fake-transport.ts';
import { createSsoLoginStore } from './sso-login.ts';

const settingsView = (providerUrl: string) => ({
  values: { oidcProviderUrl: providerUrl, oidcClientId: 'client', oidcRedirectUri: '' },
  secrets: { oidcClientSecret: { set: true } },
  overriddenByEnv: [],
});

describe('SSO login store (through an injected Transport)', () => {
  it('saves OIDC settings without sending an empty secret, then tests discovery of the saved provider', async () => {
    const via = fakeTransport({
      ops: {
        'settings.update': () => ok(settingsView('https://idp.example')),
        'identity.oidcTestDiscovery': () => ok({ ok: true, issuer: 'https://idp.example' }),
      },
    });
    const store = createSsoLoginStore(via);
    await store.getState().saveOidc({ providerUrl: 'https://idp.example', clientId: 'client', redirectUri: '', clientSecret: '' });
    expect(via.calls[0]?.input).toEqual({
      values: { oidcProviderUrl: 'https://idp.example', oidcClientId: 'client', oidcRedirectUri: '' },
      secrets: {},
    });
    expect(store.getState()).toMatchObject({
      message: 'OIDC settings saved.',
      oidc: { providerUrl: 'https://idp.example', secretSet: true },
    });
    await store.getState().testDiscovery();
    expect(via.calls[1]).toEqual({ name: 'identity.oidcTestDiscovery', input: { provider_url: 'https://idp.example' } });
    expect(store.getState().discovery).toEqual({ ok: true, issuer: 'https://idp.example' });
  });

  it('a failed action leaves an error and no report, and is not left busy', async () => {
    const store = createSsoLoginStore(fakeTransport());
    await store.getState().testSamlResponse('PHNhbWw+');
    expect(store.getState()).toMatchObject({ busy: false, samlTest: null, error: 'no fake for identity.samlTestResponse' });
  });
});
