import { writeFileSync } from 'node:fs';
import { parseOptions } from '../../cli/args.ts';
import { defineCommand } from '../../cli/command.ts';
import { commandInfo } from '../../cli/command-info.ts';
import { withApp } from '../../cli/with-app.ts';
import { defaultDataDir } from '../../config/data-dir.ts';
import { projectIdSchema } from '../input.ts';
import { anchorHead, listAnchors } from './store.ts';

const anchorUsage = commandInfo.anchor.usage;
const exportUsage = commandInfo.anchors.usage;

/** `svc anchor`: anchors a project's chain head now (exit 0), 1 when the project has no records. */
export const anchorCommand = defineCommand('anchor', async (argv) => {
  const { values, positionals } = parseOptions(argv, {
    project: { type: 'string' },
    'data-dir': { type: 'string' },
    json: { type: 'boolean' },
  });
  const project = projectIdSchema.safeParse(values.project);
  if (positionals.length > 0 || !project.success) {
    process.stderr.write(`Usage: ${anchorUsage}\n`);
    return 2;
  }
  const outcome = await withApp(values['data-dir'] ?? defaultDataDir(), (app) => anchorHead(app, project.data));
  if (values.json) process.stdout.write(`${JSON.stringify(outcome)}\n`);
  else if (outcome.anchor === null) process.stdout.write(`Project ${project.data} has no records: nothing to anchor\n`);
  else {
    const { seq, head_hash, kind, created_at } = outcome.anchor;
    const what = outcome.created ? 'Anchored' : 'Head unchanged since the last anchor:';
    process.stdout.write(`${what} ${project.data} seq ${seq} head ${head_hash} (${kind}, ${created_at})\n`);
  }
  return outcome.anchor === null ? 1 : 0;
});

/** `svc anchors export`: every anchor of a project, NDJSON (one per line) or a JSON document. */
export const anchorsCommand = defineCommand('anchors', async (argv) => {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseOptions(rest, {
    project: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    'data-dir': { type: 'string' },
  });
  const project = projectIdSchema.safeParse(values.project);
  const format = values.format ?? 'ndjson';
  if (sub !== 'export' || positionals.length > 0 || !project.success || (format !== 'ndjson' && format !== 'json')) {
    process.stderr.write(`Usage: ${exportUsage}\n`);
    return 2;
  }
  const anchors = await withApp(values['data-dir'] ?? defaultDataDir(), (app) => listAnchors(app, project.data));
  const text =
    format === 'json'
      ? `${JSON.stringify({ schema_version: 1, project_id: project.data, anchors }, null, 2)}\n`
      : anchors.map((anchor) => `${JSON.stringify(anchor)}\n`).join('');
  if (values.out === undefined) process.stdout.write(text);
  else {
    writeFileSync(values.out, text, { mode: 0o600 });
    process.stderr.write(`Wrote ${anchors.length} anchors to ${values.out}\n`);
  }
  return 0;
});
