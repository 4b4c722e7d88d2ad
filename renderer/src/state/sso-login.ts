import { create } from 'zustand';
import { type OpInput, type OpOutput, type Transport, transport } from '../transport/index.ts';
import { messageOf, opCaller } from './call.ts';

export type SamlView = OpOutput<'identity.samlGetConfig'>;
export type SamlTestReport = OpOutput<'identity.samlTestResponse'>;
export type DiscoveryReport = OpOutput<'identity.oidcTestDiscovery'>;
export type OidcView = {
  readonly providerUrl: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly secretSet: boolean;
  readonly fromEnv: readonly string[];
};
export type OidcChange = { providerUrl: string; clientId: string; redirectUri: string; clientSecret: string };

type SsoLoginState = {
  readonly saml: SamlView | null;
  readonly oidc: OidcView | null;
  readonly busy: boolean;
  readonly error: string | null;
  readonly message: string | null;
  readonly samlTest: SamlTestReport | null;
  readonly discovery: DiscoveryReport | null;
  load(): Promise<void>;
  saveSaml(change: OpInput<'identity.samlSetConfig'>): Promise<void>;
  saveOidc(change: OidcChange): Promise<void>;
  testSamlResponse(samlResponse: string): Promise<void>;
  testDiscovery(): Promise<void>;
  spMetadata(): Promise<string | null>;
  /** Desktop app: sign in through the system browser and a loopback redirect (RFC 8252). */
  desktopLogin(): Promise<void>;
};

const oidcKeys = ['oidcProviderUrl', 'oidcClientId', 'oidcRedirectUri'];

const oidcFrom = (view: OpOutput<'settings.get'>): OidcView => ({
  providerUrl: view.values.oidcProviderUrl,
  clientId: view.values.oidcClientId,
  redirectUri: view.values.oidcRedirectUri,
  secretSet: view.secrets.oidcClientSecret.set,
  fromEnv: view.overriddenByEnv.filter((key) => oidcKeys.includes(key)),
});

/** SAML and OIDC login configuration for the Identity Settings screen. */
/** Built over a given Transport (store tests inject a fake); `useSsoLogin` is the app's. */
export const createSsoLoginStore = (via: Transport, callOp = opCaller(via)) =>
  create<SsoLoginState>((set, get) => {
    /** Runs an action with one busy flag and one error slot; returns its value or null on failure. */
    const run = async <T>(action: () => Promise<T>, message?: string): Promise<T | null> => {
      set({ busy: true, error: null, message: null });
      try {
        const value = await action();
        if (message !== undefined) set({ message });
        return value;
      } catch (error) {
        set({ error: messageOf(error) });
        return null;
      } finally {
        set({ busy: false });
      }
    };
    return {
      saml: null,
      oidc: null,
      busy: false,
      error: null,
      message: null,
      samlTest: null,
      discovery: null,
      load: async () => {
        await run(async () => {
          const [saml, settings] = await Promise.all([callOp('identity.samlGetConfig', {}), callOp('settings.get', {})]);
          set({ saml, oidc: oidcFrom(settings) });
        });
      },
      saveSaml: async (change) => {
        await run(async () => set({ saml: await callOp('identity.samlSetConfig', change) }), 'SAML settings saved.');
      },
      saveOidc: async (change) => {
        await run(async () => {
          const settings = await callOp('settings.update', {
            values: { oidcProviderUrl: change.providerUrl, oidcClientId: change.clientId, oidcRedirectUri: change.redirectUri },
            secrets: change.clientSecret === '' ? {} : { oidcClientSecret: change.clientSecret },
          });
          set({ oidc: oidcFrom(settings), discovery: null });
        }, 'OIDC settings saved.');
      },
      testSamlResponse: async (samlResponse) => {
        set({ samlTest: null });
        const report = await run(() => callOp('identity.samlTestResponse', { saml_response: samlResponse }));
        if (report !== null) set({ samlTest: report });
      },
      testDiscovery: async () => {
        set({ discovery: null });
        const providerUrl = get().oidc?.providerUrl ?? '';
        const report = await run(() => callOp('identity.oidcTestDiscovery', providerUrl === '' ? {} : { provider_url: providerUrl }));
        if (report !== null) set({ discovery: report });
      },
      spMetadata: () => run(() => callOp('identity.samlMetadata', {})),
      desktopLogin: async () => {
        const result = await run(() => callOp('identity.oidcDesktopLogin', {}));
        if (result !== null) set({ message: `Signed in through the system browser as ${result.subject} (${result.email || 'no email'}).` });
      },
    };
  });

export const useSsoLogin = createSsoLoginStore(transport);
