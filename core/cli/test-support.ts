import { vi } from 'vitest';
import type { CliCommand } from './command.ts';

/** Runs `run` with stdout and stderr captured; returns its exit code and output. */
const captured = async (run: () => Promise<number>) => {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  try {
    const code = await run();
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    vi.restoreAllMocks();
  }
};

/** Runs a `svc` sub-command in-process with stdout and stderr captured; returns its exit code and output. */
export const runCli = (command: CliCommand, argv: string[]) => captured(() => command.run(argv));

/** Runs `svc ...` in-process through the real entry point (its error line included), output captured. */
export const runMain = (argv: string[]) => captured(async () => (await import('../cli.ts')).main(argv));
