import type { App } from '../../../app.ts';
import { createTestServer, type TestServer } from '../../../http/test-support.ts';

export type ScimResponse = { status: number; headers: Record<string, unknown>; body: Record<string, unknown> };
export type ScimHarness = TestServer & {
  /** A key with only the scim scope, as an IdP would be given. */
  readonly scimKey: string;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ScimResponse>;
};

/**
 * A real server (server.inject) with a scim-scoped key; requests go through auth, parsers and routing. With
 * `app` (a test's app on either back end, test-support/backends.ts) it serves that app; otherwise an in-memory one.
 */
export const scimHarness = async (env: NodeJS.ProcessEnv = {}, app?: App): Promise<ScimHarness> => {
  const test = await createTestServer(app === undefined ? { env } : { app });
  const scimKey = test.keyFor('api', ['scim']);
  const call: ScimHarness['call'] = async (method, url, body, headers = {}) => {
    const response = await test.server.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${scimKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body === '' ? {} : (JSON.parse(response.body) as Record<string, unknown>),
    };
  };
  return { ...test, scimKey, call };
};
