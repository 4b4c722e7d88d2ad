import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { savePendingLogin, takePendingLogin } from '../oidc/pending.ts';
import { storeHandoff, takeHandoff } from './acs-handoff.ts';
import { loadSamlConfig, setSamlConfig } from './config.ts';
import { failedCheckOf } from './errors.ts';
import { acceptSamlResponse, samlAcs, samlLoginRedirect } from './service.ts';
import { buildResponse, idpMetadataXml, makeTestIdp, signElement, type TestIdp, toBase64 } from './test/idp.ts';

/**
 * SAML and OIDC login state shared by every instance on one database (issue 15, deliverable 2): the replay cache,
 * the AuthnRequest ids, the ACS one-time handles and the OIDC pending logins. On SQLite the "second instance" is the
 * same app (one process owns a file), so the same assertions hold there too.
 */
let idp: TestIdp;
beforeAll(() => {
  idp = makeTestIdp('idp');
});

const signed = (fields: Parameters<typeof buildResponse>[1] = {}) =>
  toBase64(signElement(buildResponse(new Date(), fields), fields?.assertionId ?? '_assert1', idp));

/** Outcome of a call: 'ok' or the name of the check that refused it (SAML checks, or `handoff` / `state`). */
const outcome = async (work: () => Promise<unknown>): Promise<string> => {
  try {
    await work();
    return 'ok';
  } catch (error) {
    return failedCheckOf(error) ?? (error as { detail?: { check?: string } }).detail?.check ?? String(error);
  }
};

describe.each(testBackends)('SAML and OIDC login state across instances on $name', (backend) => {
  const t = appPerTest(backend);

  /** Two instances configured alike: settings are per process here, the SAML options are a shared row. */
  const twoInstances = async (): Promise<[App, App]> => {
    const first = t().app;
    const second = await t().second();
    for (const app of [first, second]) await app.settings.update({ samlIdpMetadataXml: idpMetadataXml([idp.cert]) });
    await setSamlConfig(first, { spBaseUrl: 'https://sp.example.test', allowIdpInitiated: true });
    return [first, second];
  };

  it('shares the SAML options: what one instance sets, the other reads', async () => {
    const [, second] = await twoInstances();
    expect(await loadSamlConfig(second)).toMatchObject({ spBaseUrl: 'https://sp.example.test', allowIdpInitiated: true });
  });

  it('refuses on one instance, as a replay, a Response the other accepted', async () => {
    const [first, second] = await twoInstances();
    const response = signed();
    expect((await samlAcs(first, response)).subject).toBe('alice@example.org');
    expect(await outcome(() => samlAcs(second, response))).toBe('replay');
    expect(await outcome(() => samlAcs(first, response))).toBe('replay');
  });

  it('accepts a Response posted to both instances at once exactly once', async () => {
    const [first, second] = await twoInstances();
    for (let round = 0; round < 3; round += 1) {
      const response = signed({ assertionId: `_race${round}` });
      const outcomes = await Promise.all([first, second, first, second].map((app) => outcome(() => samlAcs(app, response))));
      expect(outcomes.filter((result) => result === 'ok')).toHaveLength(1);
      expect(outcomes.filter((result) => result === 'replay')).toHaveLength(3);
    }
  });

  it('answers an AuthnRequest started on one instance on the other, once', async () => {
    const [first, second] = await twoInstances();
    const { request_id } = await samlLoginRedirect(first);
    expect((await samlAcs(second, signed({ inResponseTo: request_id, assertionId: '_answer' }))).subject).toBe('alice@example.org');
    expect(await outcome(() => samlAcs(first, signed({ inResponseTo: request_id, assertionId: '_again' })))).toBe('in_response_to');
  });

  it('redeems an ACS handle once across instances', async () => {
    const [first, second] = await twoInstances();
    const validated = await acceptSamlResponse(first, signed({ assertionId: '_handoff' }));
    const handle = await storeHandoff(first, validated, '/settings');
    expect(await takeHandoff(second, handle)).toMatchObject({ subject: 'alice@example.org', unsolicited: true, returnPath: '/settings' });
    expect(await outcome(() => takeHandoff(first, handle))).toBe('handoff');
    const racing = await storeHandoff(second, await acceptSamlResponse(second, signed({ assertionId: '_handoff2' })), '/');
    const outcomes = await Promise.all([first, second, first, second].map((app) => outcome(() => takeHandoff(app, racing))));
    expect(outcomes.filter((result) => result === 'ok')).toHaveLength(1);
    expect(outcomes.filter((result) => result === 'handoff')).toHaveLength(3);
  });

  it('redeems an OIDC pending login once across instances', async () => {
    const [first, second] = await twoInstances();
    const login = {
      nonce: 'n',
      code_verifier: 'v'.repeat(43),
      provider_url: 'http://127.0.0.1:1/',
      client_id: 'client',
      redirect_uri: 'http://127.0.0.1/oidc/callback',
      scope: 'openid email',
      browser_binding: null,
    };
    for (let round = 0; round < 3; round += 1) {
      const state = `state-${round}`;
      await savePendingLogin(round % 2 === 0 ? first : second, { ...login, state });
      const outcomes = await Promise.all(
        [first, second, first, second].map((app) => outcome(() => takePendingLogin(app, state, undefined))),
      );
      expect(outcomes.filter((result) => result === 'ok')).toHaveLength(1);
      expect(outcomes.filter((result) => result === 'state')).toHaveLength(3);
    }
  });
});
