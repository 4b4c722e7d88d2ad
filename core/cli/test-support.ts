import { vi } from 'vitest';
import { main } from '../cli.ts';
import type { CliCommand } from './command.ts';

/** Runs a `svc` sub-command in-process with stdout and stderr captured; returns its exit code and output. */
export const runCli = async (command: CliCommand | null, argv: readonly string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  try {
    const code = command === null ? await main(argv) : await command.run(argv);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    vi.restoreAllMocks();
  }
};

/** Runs `svc ...` in-process through the real entry point (command lookup, error handling), output captured. */
export const runSvc = (argv: readonly string[]) => runCli(null, argv);
