/**
 * A separate OS process writing to the same SQLite file as others (used by store.test.ts): it races a create of
 * a shared userName, then adds `count` e-mails to one user with PATCH. Prints one JSON line with its outcomes.
 */
import { createApp } from '../../../app.ts';
import { scimTypeOf } from '../errors.ts';
import { scimCreateUser, scimPatchUser } from '../service.ts';

const [dataDir = '', userId = '', worker = '0', count = '10'] = process.argv.slice(2);
const app = createApp({ dataDir });
let created = 0;
let conflicts = 0;
try {
  await scimCreateUser(app, { userName: 'Shared.Name@example.com' });
  created += 1;
} catch (error) {
  if (scimTypeOf(error) !== 'uniqueness') throw error;
  conflicts += 1;
}
for (let index = 0; index < Number(count); index += 1) {
  await scimPatchUser(app, userId, [{ op: 'add', path: 'emails', value: [{ value: `w${worker}-${index}@example.com` }] }]);
}
app.close();
process.stdout.write(`${JSON.stringify({ created, conflicts })}\n`);
