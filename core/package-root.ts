import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory of the product's package.json, found upward from this module: the same answer from the sources
 * (core/), the prebuilt CLI (dist/) and the desktop bundle (dist-electron/, inside app.asar), whose depths differ.
 */
const findPackageRoot = (): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
};

export const packageRoot: string = findPackageRoot();
