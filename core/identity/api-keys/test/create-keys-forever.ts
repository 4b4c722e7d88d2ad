// Child process for the SIGKILL durability test: creates keys until killed, printing each id only after its
// transaction has committed (that print is the acknowledgement).
import { createApp } from '../../../app.ts';
import { createApiKey } from '../service.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new TypeError('usage: create-keys-forever.ts DATA_DIR');
const app = createApp({ dataDir, env: {} });
for (let i = 0; ; i++) {
  const key = await createApiKey(app, { tier: 'api', name: `k${i}` });
  process.stdout.write(`${key.id}\n`);
}
