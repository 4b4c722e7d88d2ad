// Process boundaries (STYLE.md 2.1), enforced on every lint run:
// - core/ never imports electron, react, or DOM-only code;
// - renderer/ imports from core/ only with `import type`, except core/contracts/ (shared schemas, IPC names);
// - preload/ imports nothing from core/ but core/contracts/;
// - core/contracts/ imports nothing but zod and other contracts (no Node, so every process may load it).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const files = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(path).isDirectory() ? files(path) : /\.(ts|tsx|mts)$/.test(name) ? [path] : [];
  });

const importRe =
  /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
const problems = [];
const check = (dir, rule) => {
  for (const file of files(dir)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importRe)) {
      const typeOnly = Boolean(match[2]);
      const target = match[3] ?? match[4] ?? match[5];
      const problem = rule({ file, target, typeOnly });
      if (problem) problems.push(`${relative('.', file)}: ${problem} (${target})`);
    }
  }
};
const intoCore = (target) => /(^|\/)core\//.test(target);
const intoContracts = (target) => /(^|\/)core\/contracts\//.test(target);
check('core', ({ target }) =>
  target === 'electron' || target.startsWith('electron/')
    ? 'core must not import electron'
    : target === 'react' || target.startsWith('react-dom')
      ? 'core must not import UI code'
      : target.includes('/renderer/')
        ? 'core must not import the renderer'
        : null,
);
check('renderer/src', ({ target, typeOnly }) =>
  intoCore(target) && !typeOnly && !intoContracts(target)
    ? 'renderer may import core only with `import type` (values: core/contracts/)'
    : null,
);
check('preload', ({ target }) => (intoCore(target) && !intoContracts(target) ? 'preload may import only core/contracts/ from core' : null));
check('core/contracts', ({ target }) =>
  target === 'zod' || target.startsWith('./') ? null : 'contracts import only zod and other contracts',
);
if (problems.length > 0) {
  console.error(`Import boundary violations:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('import boundaries ok');
