/** One `svc <name>` sub-command. `run` returns the process exit code; it writes to stdout/stderr itself. */
export type CliCommand = {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  readonly run: (argv: readonly string[]) => Promise<number>;
};
