import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Provider (oidc-provider 8) on 127.0.0.1 for tests: one confidential client using
 * client_secret_basic, accounts from a fixed table, and interactions completed by a tiny login policy: the
 * interaction page logs in whichever account `loginAs` names (no form, so tests and e2e can drive it).
 */
export type TestProvider = {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The account the next interaction logs in. */
  loginAs(accountId: string): void;
  close(): Promise<void>;
};

export const testAccounts: Readonly<Record<string, { email: string }>> = {
  alice: { email: 'alice@example.org' },
  bob: { email: 'bob@example.org' },
};

/** The environment that points an app at `provider` (its URL, client id and secret). */
export const providerEnv = (provider: TestProvider): NodeJS.ProcessEnv => ({
  SVC_OIDC_PROVIDER_URL: provider.issuer,
  SVC_OIDC_CLIENT_ID: provider.clientId,
  SVC_OIDC_CLIENT_SECRET: provider.clientSecret,
});

export const startTestProvider = async (options: {
  redirectUris: string[];
  clientSecret?: string;
  /** A native client with the loopback redirect `http://127.0.0.1/oidc/callback`, any port (RFC 8252 7.3). */
  loopbackNativeClient?: boolean;
}): Promise<TestProvider> => {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientSecret = options.clientSecret ?? 'test-client-secret-that-is-long-enough-0123456789';
  let account = 'alice';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'workbench',
        client_secret: clientSecret,
        token_endpoint_auth_method: 'client_secret_basic',
        redirect_uris: options.loopbackNativeClient ? ['http://127.0.0.1/oidc/callback'] : options.redirectUris,
        ...(options.loopbackNativeClient ? { application_type: 'native' as const } : {}),
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_ctx, id) => {
      const known = testAccounts[id];
      if (known === undefined) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: known.email, email_verified: true, name: id }) };
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // First-party client: consent is implied, so the grant is created here instead of a consent prompt.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (accountId === undefined || clientId === undefined) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    jwks: {
      keys: [
        {
          ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
          kid: 'test',
          use: 'sig',
          alg: 'RS256',
        },
      ],
    },
  });
  provider.on('server_error', () => {});
  const callback = provider.callback();
  handler = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      // Native clients (RFC 8252) always get a consent prompt from oidc-provider; answer it like a user would.
      const finish = async (): Promise<void> => {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'consent' && details.session?.accountId) {
          const grant = new provider.Grant({ accountId: details.session.accountId, clientId: String(details.params.client_id) });
          grant.addOIDCScope('openid email profile');
          await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
          return;
        }
        await provider.interactionFinished(req, res, { login: { accountId: account } }, { mergeWithLastSubmission: false });
      };
      finish().catch(() => {
        res.statusCode = 400;
        res.end('interaction failed');
      });
      return;
    }
    callback(req, res);
  };
  return {
    issuer,
    clientId: 'workbench',
    clientSecret,
    loginAs: (id) => {
      account = id;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/**
 * Follows the browser's redirects from the authorization URL through the provider's interaction until the
 * provider redirects to `redirectPrefix`, keeping cookies like a browser; returns that final URL.
 */
export const followLogin = async (authorizationUrl: string, redirectPrefix: string): Promise<URL> => {
  const jar = new Map<string, string>();
  const prefix = new URL(redirectPrefix).href;
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop += 1) {
    if (url.startsWith(prefix)) return new URL(url);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookie === '' ? {} : { cookie } });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const index = pair.indexOf('=');
      if (index > 0) jar.set(pair.slice(0, index), pair.slice(index + 1));
    }
    const location = response.headers.get('location');
    if (location === null) throw new Error(`login stopped at ${response.status} ${await response.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
};
