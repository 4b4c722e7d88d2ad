import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appPerTest, testBackends } from '../test-support/backends.ts';

describe.each(testBackends)('appPerTest on $name', (backend) => {
  const t = appPerTest(backend);
  it('gives an app whose database a second instance shares', async () => {
    const { app } = t();
    await app.database.run('INSERT INTO pii_state (key, value) VALUES (?, ?)', ['k', 'v']);
    const second = await t().second();
    expect(await second.database.one(z.object({ value: z.string() }), 'SELECT value FROM pii_state WHERE key = ?', ['k'])).toEqual({
      value: 'v',
    });
    expect(app.database.dialect).toBe(backend.name);
  });
});
