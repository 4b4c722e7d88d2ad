import { openApp } from '../app.ts';
import { defaultDataDir } from '../config/data-dir.ts';
import { createApiKey, keyTiers, listApiKeys, revokeApiKey } from '../identity/api-keys/service.ts';
import { parseOptions } from './args.ts';
import { defineCommand } from './command.ts';

/** `svc keys create|list|revoke`: works directly on the data dir, so it bootstraps a headless server. */
export const keysCommand = defineCommand('keys', async (argv) => {
  const { values, positionals } = parseOptions(argv, {
    tier: { type: 'string' },
    name: { type: 'string' },
    scope: { type: 'string' },
    'data-dir': { type: 'string' },
    json: { type: 'boolean' },
  });
  const [action, id] = positionals;
  const app = await openApp({ dataDir: values['data-dir'] ?? defaultDataDir() });
  try {
    if (action === 'create') {
      const tier = values.tier;
      if (!keyTiers.includes(tier as (typeof keyTiers)[number])) {
        process.stderr.write(`--tier must be one of ${keyTiers.join(', ')}\n`);
        return 2;
      }
      const key = await createApiKey(app, {
        tier: tier as (typeof keyTiers)[number],
        ...(values.name ? { name: values.name } : {}),
        scopes: values.scope === 'scim' ? ['scim'] : [],
      });
      process.stdout.write(values.json ? `${JSON.stringify(key)}\n` : `${key.secret}\n`);
      process.stderr.write(`Created ${key.tier} key ${key.id} (${key.name}). The secret above is shown once.\n`);
      return 0;
    }
    if (action === 'list') {
      process.stdout.write(`${JSON.stringify(await listApiKeys(app), null, 2)}\n`);
      return 0;
    }
    if (action === 'revoke' && id) {
      process.stdout.write(`${JSON.stringify(await revokeApiKey(app, id))}\n`);
      return 0;
    }
    process.stderr.write(`Usage: ${keysCommand.usage}\n`);
    return 2;
  } finally {
    await app.close();
  }
});
