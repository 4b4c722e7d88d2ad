import { anchorCommand, anchorsCommand } from '../audit/anchors/cli.ts';
import { importCommand } from '../audit/cli.ts';
import { buildCommand, publicKeyCommand, verifyCommand } from '../cec/cli.ts';
import { dpaCommand } from '../cec/dpa/cli.ts';
import { oscalCommand } from '../cec/oscal/cli.ts';
import { scanCommand } from '../pii/cli.ts';
import type { CliCommand } from './command.ts';

/** Every sub-command of `svc`; each domain contributes its own from its `cli.ts`. */
export const commands: readonly CliCommand[] = [
  importCommand,
  scanCommand,
  dpaCommand,
  verifyCommand,
  buildCommand,
  publicKeyCommand,
  oscalCommand,
  anchorCommand,
  anchorsCommand,
];
