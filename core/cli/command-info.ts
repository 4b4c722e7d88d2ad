/**
 * Name, usage and one-line summary of every `svc` sub-command, in the order `svc --help` lists them. This module
 * imports nothing: `--help` prints it without loading any command (each is imported on use, commands.ts).
 */
export const commandInfo = {
  serve: {
    usage: 'svc serve [--host H] [--port N] [--data-dir DIR]',
    summary: 'Run the headless API and web workbench (loopback by default)',
  },
  keys: {
    usage: 'svc keys create --tier free|api|admin [--name N] [--scope scim] [--data-dir DIR] | svc keys list | svc keys revoke ID',
    summary: 'Create (prints the secret once), list or revoke API keys',
  },
  import: {
    usage: 'svc import FILE.ndjson [--project P] [--data-dir DIR] [--json]',
    summary: 'Import NDJSON evidence records (one JSON object per line) into the hash-chained store, all or nothing',
  },
  scan: {
    usage:
      'svc scan FILE|- [--json] [--language en] [--entities A,B] [--threshold 0.5] [--phone-regions GB,TR] [--explain] [--data-dir DIR]',
    summary: 'Scan a text file (or - for stdin) for PII; prints redacted text or JSON; exit 0 clean, 1 PII found, 2 error',
  },
  dpa: {
    usage: 'svc dpa --json INPUT.json --format md|html|pdf|docx -o OUT [--data-dir DIR]',
    summary: 'Generate a GDPR Art. 28 DPA from a JSON file and write it as Markdown, HTML, PDF or DOCX',
  },
  verify: {
    usage:
      'svc verify FILE.zip|s3://BUCKET/KEY|URL [--key K] [--public-key FILE]... [--tsa-ca FILE]... [--anchors FILE] [--json] [--data-dir DIR]',
    summary:
      'Verify an evidence bundle (a path, s3:// or a presigned URL): ZIP structure, manifest HMAC, entry digests, Ed25519 signature, chain, timestamp, anchors (also against an anchors export you kept)',
  },
  build: {
    usage: 'svc build --project P --from YYYY-MM-DD --to YYYY-MM-DD [--frameworks a,b] [--out DIR] [--data-dir DIR] [--json]',
    summary: 'Build a signed evidence bundle (ZIP) for a project and an inclusive date range',
  },
  'public-key': {
    usage: 'svc public-key [--json] [--data-dir DIR]',
    summary: "Print this install's bundle-signing public key (PEM) and its RFC 7638 thumbprint, to publish out of band",
  },
  oscal: {
    usage: 'svc oscal FILE.zip [-o OUT.json] [--key K | --public-key FILE] [--data-dir DIR]',
    summary: "Export a bundle's clause map and evidence summary as an OSCAL 1.1.3 Assessment Results document (JSON)",
  },
  anchor: {
    usage: 'svc anchor --project P [--data-dir DIR] [--json]',
    summary: "Anchor a project's chain head now: RFC 3161 token from SVC_TSA_URL, else an Ed25519 checkpoint",
  },
  anchors: {
    usage: 'svc anchors export --project P [--format ndjson|json] [--out FILE] [--data-dir DIR]',
    summary: "Export a project's chain anchors (to publish or hand to an auditor out of band)",
  },
} as const satisfies Record<string, { readonly usage: string; readonly summary: string }>;

export type CommandName = keyof typeof commandInfo;

export const isCommandName = (name: string): name is CommandName => Object.hasOwn(commandInfo, name);
