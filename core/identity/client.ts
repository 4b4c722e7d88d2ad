import type { App } from '../app.ts';
import { defaultApp } from '../default-app.ts';
import { AppError, SFIdentityError } from '../errors.ts';
import { invoke } from '../ops/dispatch.ts';
import {
  type ApiKeyInfo,
  type CreatedApiKey,
  type CreateKeyInput,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  validateApiKey,
} from './api-keys/service.ts';
import { samlAcs, samlMetadata } from './saml/service.ts';
import { type OIDCAuthRequest, type OIDCTokenResult, type OidcAuthorizeInput, oidcAuthorize, oidcCallback } from './oidc/service.ts';
import {
  scimCreateGroup,
  scimCreateUser,
  scimDeleteGroup,
  scimDeleteUser,
  scimGetUser,
  scimListGroups,
  scimListUsers,
  scimPatchUser,
} from './scim/service.ts';
import type { SCIMGroup, SCIMListResponse, SCIMUser } from './scim/types.ts';
import { delegateSession, getSession, revokeIdpSession, type SSOSession } from './sso/sessions.ts';

/** Every identity failure surfaces as SFIdentityError (spec 7), keeping the code and the cause. */
const asIdentityError = (error: unknown): unknown =>
  error instanceof AppError && !(error instanceof SFIdentityError)
    ? new SFIdentityError(error.message, {
        code: error.code,
        cause: error,
        ...(error.status === undefined ? {} : { status: error.status }),
      })
    : error;

const guardAsync = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw asIdentityError(error);
  }
};

/**
 * The identity and SSO client of spec 4.4: SCIM users and groups, SSO session delegation, OIDC, and API keys,
 * over the app's SQLite store. Without an app it uses the default app (SVC_DATA_DIR), opened on first use.
 */
export class SFIdentityClient {
  readonly #app: App | undefined;

  constructor(app?: App) {
    this.#app = app;
  }

  get app(): App {
    return this.#app ?? defaultApp();
  }

  /** Users matching a SCIM filter (empty: all); `startIndex` 1-based; `count` at most 100. */
  scimListUsers(filterStr = '', startIndex = 1, count = 100): Promise<SCIMListResponse<SCIMUser>> {
    return guardAsync(() => scimListUsers(this.app, filterStr, startIndex, count));
  }

  /** Creates a user from an RFC 7643 User resource. Throws SFIdentityError when the userName exists. */
  scimCreateUser(userData: Record<string, unknown>): Promise<SCIMUser> {
    return guardAsync(() => scimCreateUser(this.app, userData));
  }

  /** Throws SFIdentityError when the user is not found. */
  scimGetUser(userId: string): Promise<SCIMUser> {
    return guardAsync(() => scimGetUser(this.app, userId));
  }

  /** Applies RFC 7644 3.5.2 PATCH operations atomically; `replace active false` deactivates. */
  scimPatchUser(userId: string, patchOps: readonly Record<string, unknown>[]): Promise<SCIMUser> {
    return guardAsync(() => scimPatchUser(this.app, userId, patchOps));
  }

  /** Deletes permanently and revokes the user's SSO sessions. Throws SFIdentityError when not found. */
  scimDeleteUser(userId: string): Promise<void> {
    return guardAsync(() => scimDeleteUser(this.app, userId));
  }

  scimListGroups(startIndex = 1, count = 100): Promise<SCIMListResponse<SCIMGroup>> {
    return guardAsync(() => scimListGroups(this.app, startIndex, count));
  }

  scimCreateGroup(groupData: Record<string, unknown>): Promise<SCIMGroup> {
    return guardAsync(() => scimCreateGroup(this.app, groupData));
  }

  /** Deletes a group; its members remain. */
  scimDeleteGroup(groupId: string): Promise<void> {
    return guardAsync(() => scimDeleteGroup(this.app, groupId));
  }

  /** Binds an IdP session to a new workbench session (8 h). */
  ssoDelegateSession(idpSessionId: string, subject: string, email: string, projectId: string): Promise<SSOSession> {
    return guardAsync(() => delegateSession(this.app, { idp_session_id: idpSessionId, subject, email, project_id: projectId }));
  }

  /** The spec's non-blocking variant: the same Promise-returning delegation; email defaults to '' and projectId to 'default'. */
  ssoDelegateSessionAsync(
    idpSessionId: string,
    subject: string,
    options: { email?: string; projectId?: string } = {},
  ): Promise<SSOSession> {
    return this.ssoDelegateSession(idpSessionId, subject, options.email ?? '', options.projectId ?? 'default');
  }

  /** Throws SFIdentityError when the session is unknown, revoked or expired. */
  ssoGetSession(sessionId: string): Promise<SSOSession> {
    return guardAsync(() => getSession(this.app, sessionId));
  }

  /** Revokes every session delegated from the IdP session; false when none matched. */
  ssoRevokeIdpSession(idpSessionId: string): Promise<boolean> {
    return guardAsync(() => revokeIdpSession(this.app, idpSessionId));
  }

  /** Well-formed SP metadata XML (entity id, ACS URL, signing certificate). */
  samlMetadata(): Promise<string> {
    return guardAsync(() => samlMetadata(this.app));
  }

  /** Validates a base64 SAMLResponse; SFIdentityError when invalid, expired or the signature fails. */
  samlAcs(samlResponse: string, options: { relayState?: string } = {}): Promise<{ subject: string; email: string; session_jwt: string }> {
    return guardAsync(() => samlAcs(this.app, samlResponse, options));
  }

  /** Starts an OIDC authorization-code login with PKCE (defaults from settings). */
  oidcAuthorize(input: OidcAuthorizeInput = {}): Promise<OIDCAuthRequest> {
    return guardAsync(() => oidcAuthorize(this.app, input));
  }

  /** Completes an OIDC login; SFIdentityError on state mismatch or exchange failure. */
  oidcCallback(code: string, state: string, subject: string, email: string): Promise<OIDCTokenResult> {
    return guardAsync(() => oidcCallback(this.app, { code, state, subject, email }));
  }

  /** Creates an API key; the returned secret is shown only this once. */
  createApiKey(input: CreateKeyInput): Promise<CreatedApiKey> {
    return guardAsync(() => createApiKey(this.app, input));
  }

  listApiKeys(): Promise<ApiKeyInfo[]> {
    return guardAsync(() => listApiKeys(this.app));
  }

  /** Issues a new secret; the old one works for `graceSeconds` (default 0). */
  rotateApiKey(keyId: string, graceSeconds = 0): Promise<CreatedApiKey> {
    return guardAsync(() => rotateApiKey(this.app, keyId, graceSeconds));
  }

  revokeApiKey(keyId: string): Promise<ApiKeyInfo> {
    return guardAsync(() => revokeApiKey(this.app, keyId));
  }

  /** The active key a secret belongs to, or null. */
  validateApiKey(secret: string): Promise<ApiKeyInfo | null> {
    return guardAsync(() => validateApiKey(this.app, secret));
  }

  /** Exchanges an API key for a short-lived session JWT (the `auth.exchange` operation). */
  exchangeApiKey(apiKey: string): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }> {
    return guardAsync(
      async () =>
        (await invoke(
          'auth.exchange',
          { api_key: apiKey },
          { app: this.app, actor: { kind: 'local', id: 'sdk', tier: 'admin', scopes: [] } },
        )) as {
          access_token: string;
          token_type: 'Bearer';
          expires_in: number;
        },
    );
  }
}

/** The SDK singleton over the default app. */
export const sfIdentity = new SFIdentityClient();
