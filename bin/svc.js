#!/usr/bin/env node
// The `svc` command. The core is TypeScript run through tsx, so `npx svc ...` works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../core/cli.ts');
process.exitCode = await main(process.argv.slice(2));
