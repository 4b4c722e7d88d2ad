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
 * `work` on an entry of the walk, or undefined when the entry is gone: another process on the same data dir (a
 * second `svc`, a CLI command) may remove SQLite's -wal and -shm or a temp file between the directory listing
 * and the look at it, and what no longer exists needs no tightening. That race crashed a start-up in CI.
 */
const unlessGone = <T>(work: () => T): T | undefined => {
  try {
    return work();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

/**
 * Creates the data directory (0700) and tightens what an older version or another umask left readable: every
 * directory to 0700 and every file to 0600 when it is ours; entries owned by someone else are only reported.
 * Symlinks are not followed. Returns the paths changed.
 */
export const securePrivateTree = (root: string, log: Logger): string[] => {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const changed: string[] = [];
  const visit = (path: string): void => {
    const stat = unlessGone(() => lstatSync(path));
    if (stat === undefined || stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? 0o700 : 0o600;
    if ((stat.mode & 0o077) !== 0) {
      if (ownedByUs(stat.uid)) {
        const tightened = unlessGone(() => {
          chmodSync(path, (stat.mode & 0o700) | (wanted & 0o700));
          return true;
        });
        if (tightened === undefined) return;
        changed.push(path);
      } else {
        log.warn({ path, mode: (stat.mode & 0o777).toString(8) }, 'data file readable by others and not ours to tighten');
      }
    }
    if (stat.isDirectory()) for (const name of unlessGone(() => readdirSync(path)) ?? []) visit(join(path, name));
  };
  visit(root);
  if (changed.length > 0) log.warn({ count: changed.length }, 'tightened permissions of data files readable by other users');
  return changed;
};
