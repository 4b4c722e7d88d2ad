/**
 * Phones (issue 13): country entity types registered and requestable, phone regions per request (`phone_regions`)
 * and per setting (SVC_PII_PHONE_REGIONS), and libphonenumber's "national prefix present if required" rule that
 * Presidio's VALID-leniency matcher applies.
 */
import { getExampleNumber } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/examples.mobile.json';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../http/test-support.ts';
import { createPiiEngine } from './engine.ts';
import { phoneRegionsOfSetting } from './phone-regions.ts';
import { countryPhoneRecognizers } from './recognizers/generic/phone-countries.ts';

const engine = createPiiEngine();
const hits = (text: string, entity: string, phoneRegions?: ('GB' | 'DE' | 'FR' | 'JP' | 'PH' | 'TR' | 'US')[]) =>
  engine
    .scan(text, { entities: [entity], ...(phoneRegions ? { phoneRegions } : {}) })
    .entities.map((f) => [...text].slice(f.start, f.end).join(''));

describe('the leading-zero (national prefix) rule', () => {
  it.each([
    ['GB', '020 7946 0000', '20 7946 0000'],
    ['DE', '030 12345678', '30 12345678'],
    ['FR', '06 12 34 56 78', '6 12 34 56 78'],
    ['JP', '03-1234-5678', '3-1234-5678'],
    ['PH', '0917 123 4567', '917 123 4567'],
  ] as const)('%s: %s is a number, %s (no trunk prefix) is not', (region, withPrefix, without) => {
    expect(hits(`call ${withPrefix} now`, 'PHONE_NUMBER', [region])).toEqual([withPrefix]);
    expect(hits(`call ${without} now`, 'PHONE_NUMBER', [region])).toEqual([]);
  });
  it('regions whose format does not need the prefix keep numbers without it (US has no trunk 0)', () => {
    expect(hits('call (212) 555-0199 now', 'PHONE_NUMBER', ['US'])).toEqual(['(212) 555-0199']);
  });
});

describe('country phone entities', () => {
  const entities = countryPhoneRecognizers.map((r) => r.supportedEntities[0] as string);

  it('are loaded, opt-in, and include Presidio test names', () => {
    expect(entities).toEqual(expect.arrayContaining(['PH_MOBILE_NUMBER', 'TR_PHONE_NUMBER', 'JP_PHONE_NUMBER', 'CN_PHONE_NUMBER']));
    for (const e of entities) expect(engine.entityTypes('en')).toContain(e);
    for (const e of entities) expect(engine.defaultEntityTypes('en')).not.toContain(e);
  });

  it("each finds its region's example mobile number, nationally and internationally, and not another country's", () => {
    for (const recognizer of countryPhoneRecognizers) {
      const entity = recognizer.supportedEntities[0] as string;
      const region = entity.slice(0, 2) as keyof typeof examples;
      const number = getExampleNumber(region, examples);
      expect(number, region).toBeDefined();
      const national = number?.formatNational() ?? '';
      const international = number?.formatInternational() ?? '';
      expect(hits(`tel ${national} ok`, entity), `${entity} ${national}`).toEqual([national]);
      expect(hits(`tel ${international} ok`, entity), `${entity} ${international}`).toEqual([international]);
      const other = region === 'GB' ? 'DE' : 'GB';
      const foreign = getExampleNumber(other, examples)?.formatInternational() ?? '';
      expect(hits(`tel ${foreign} ok`, entity), `${entity} ${foreign}`).toEqual([]);
    }
  });
});

describe('phone regions over HTTP', () => {
  let servers: TestServer[] = [];
  const start = async (env: NodeJS.ProcessEnv = {}) => {
    const t = await createTestServer({ env });
    servers.push(t);
    return t;
  };
  afterEach(async () => {
    for (const t of servers) await t.close();
    servers = [];
  });
  const scan = (t: TestServer, payload: unknown) =>
    t.server.inject({
      method: 'POST',
      url: '/v1/scan/pii',
      headers: { 'content-type': 'application/json', ...t.auth() },
      payload: JSON.stringify(payload),
    });
  const turkish = 'ara 0532 123 45 67 lütfen';

  it('phone_regions in the request replace the default regions', async () => {
    const t = await start();
    const newYork = 'call (212) 555-0199 today';
    expect((await scan(t, { text: newYork, entities: ['PHONE_NUMBER'] })).json().redacted_text).toBe('call <PHONE_NUMBER> today');
    expect((await scan(t, { text: newYork, entities: ['PHONE_NUMBER'], phone_regions: ['GB'] })).json().entities).toEqual([]);
    const tr = (await scan(t, { text: turkish, entities: ['PHONE_NUMBER'], phone_regions: ['TR'] })).json();
    expect(tr.redacted_text).toBe('ara <PHONE_NUMBER> lütfen');
  });

  it('SVC_PII_PHONE_REGIONS sets the default; the status lists the country entities', async () => {
    const t = await start({ SVC_PII_PHONE_REGIONS: 'GB' });
    expect((await scan(t, { text: 'call (212) 555-0199 today', entities: ['PHONE_NUMBER'] })).json().entities).toEqual([]);
    expect((await scan(t, { text: 'call 020 7946 0000 today', entities: ['PHONE_NUMBER'] })).json().entities).toHaveLength(1);
    const status = (await t.server.inject({ method: 'GET', url: '/v1/svc/status' })).json();
    expect(status.sf_pii.entity_types_loaded).toEqual(expect.arrayContaining(['PH_MOBILE_NUMBER', 'TR_PHONE_NUMBER', 'CN_PHONE_NUMBER']));
  });

  it('a country entity can be requested (no 400)', async () => {
    const t = await start();
    const response = await scan(t, { text: turkish, entities: ['TR_PHONE_NUMBER'] });
    expect(response.statusCode).toBe(200);
    expect(response.json().redacted_text).toBe('ara <TR_PHONE_NUMBER> lütfen');
  });

  it.each([[['XX']], [['gb']], [[]], ['GB']])('phone_regions %j is a 400 with a reason', async (phone_regions) => {
    const t = await start();
    const response = await scan(t, { text: turkish, phone_regions });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/phone_regions/);
  });

  it('an unknown region in SVC_PII_PHONE_REGIONS is a clear error, not a narrower scan', async () => {
    const t = await start({ SVC_PII_PHONE_REGIONS: 'GB,XX' });
    const response = await scan(t, { text: turkish });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/SVC_PII_PHONE_REGIONS: no numbering plan for XX/);
  });
});

describe('the SVC_PII_PHONE_REGIONS setting', () => {
  it('is parsed once per value: the same value gives the same regions, another value its own, a bad one an error', () => {
    const first = phoneRegionsOfSetting('US,GB');
    expect(first).toEqual(['US', 'GB']);
    expect(phoneRegionsOfSetting('US,GB')).toBe(first);
    expect(phoneRegionsOfSetting('DE')).toEqual(['DE']);
    expect(() => phoneRegionsOfSetting('DE,XX')).toThrow(/no numbering plan for XX/);
    expect(phoneRegionsOfSetting('US,GB')).toEqual(['US', 'GB']);
  });
});
