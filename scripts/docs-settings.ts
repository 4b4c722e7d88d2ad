// Regenerates the README's configuration table from core/config/settings-schema.ts (`npm run docs:settings`).
import { readFileSync, writeFileSync } from 'node:fs';
import { withSettingsTable } from '../core/config/settings-table.ts';

const file = new URL('../README.md', import.meta.url);
const before = readFileSync(file, 'utf8');
const after = withSettingsTable(before);
writeFileSync(file, after);
console.log(before === after ? 'README.md configuration table already up to date' : 'README.md configuration table regenerated');
