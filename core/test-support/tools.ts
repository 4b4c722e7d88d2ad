/**
 * Tests that compare our verdicts with stock tools (Info-ZIP, Python's zipfile, openssl, coreutils) need those
 * tools on PATH. Where one is absent the test skips and says which and why, instead of failing on a machine
 * that has only Node; where present, it runs. Test support only.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const onPath = (tool: string): boolean =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .some((dir) => {
      try {
        accessSync(join(dir, tool), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });

/**
 * Null when every tool is on PATH; otherwise the reason `what` is skipped, printed once here so the run's
 * output says it (vitest lists the tests only as skipped). Use with `describe.skipIf(missing !== null)`.
 */
export const missingTools = (what: string, tools: readonly string[]): string | null => {
  const absent = tools.filter((tool) => !onPath(tool));
  if (absent.length === 0) return null;
  const reason = `${absent.join(', ')} not found on PATH: ${what} skipped`;
  console.warn(reason);
  return reason;
};
