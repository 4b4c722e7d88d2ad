import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log.ts';

/** Files this process creates are private to the user: no group or other bits (directories 0700, files 0600). */
export const privateUmask = 0o077;

/** Sets the process umask; every entry point (svc CLI and serve, the Electron main process) calls it first. */
export const applyPrivateUmask = (): void => {
  process.umask(privateUmask);
};

const ownedByUs = (uid: number): boolean => typeof process.getuid !== 'function' || process.getuid() === uid;

/**
 * Creates the data directory (0700) and tightens what an older version or another umask left readable: every
 * directory to 0700 and every file to 0600 when it is ours; entries owned by someone else are only reported.
 * Symlinks are not followed. Returns the paths changed.
 */
export const securePrivateTree = (root: string, log: Logger): string[] => {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const changed: string[] = [];
  const visit = (path: string): void => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? 0o700 : 0o600;
    if ((stat.mode & 0o077) !== 0) {
      if (ownedByUs(stat.uid)) {
        chmodSync(path, (stat.mode & 0o700) | (wanted & 0o700));
        changed.push(path);
      } else {
        log.warn({ path, mode: (stat.mode & 0o777).toString(8) }, 'data file readable by others and not ours to tighten');
      }
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  if (changed.length > 0) log.warn({ count: changed.length }, 'tightened permissions of data files readable by other users');
  return changed;
};
