import { frameworkClauses, frameworkEdition } from './catalog.ts';
import { frameworkDisplayName } from './resolve.ts';
import { type ClauseDefinition, frameworkIds } from './types.ts';

const cell = (text: string): string => text.replace(/\|/g, '\\|');

const frameworkSection = (id: (typeof frameworkIds)[number]): string[] => {
  const edition = frameworkEdition(id);
  const all = frameworkClauses(id);
  const mapped = all.filter((c) => c.mappings.length > 0 && c.level === 'clause');
  const groups = all.filter((c) => c.mappings.length > 0 && c.level === 'group');
  const excluded = all.filter((c) => c.mappings.length === 0);
  const rows = mapped.flatMap((c: ClauseDefinition) =>
    c.mappings.map(
      (m, i) =>
        `| ${i === 0 ? cell(`${c.clause_id} ${c.clause_name}`) : ''} | \`${m.schema_key}\` | ${m.relationship} | ${cell(m.rationale)} | ${i === 0 ? cell(c.source) : ''} |`,
    ),
  );
  const byReason = new Map<string, string[]>();
  for (const c of excluded) byReason.set(c.exclusion ?? '', [...(byReason.get(c.exclusion ?? '') ?? []), c.clause_id]);
  return [
    `### ${frameworkDisplayName(id)} (\`${id}\`)`,
    '',
    `${edition.title}; ${edition.version}.`,
    '',
    `${all.length} clauses in the data: ${mapped.length} mapped clauses, ${groups.length} headings that roll up, ${excluded.length} excluded.`,
    '',
    '| Clause | Key | Relationship | Rationale | Source |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    'Excluded (no evidence mapping; not in `clause_map.json`, listed by `frameworks.clauses` with the reason):',
    '',
    ...[...byReason].map(([reason, ids]) => `- ${reason} ${ids.join(', ')}`),
    '',
  ];
};

/**
 * The mapping tables of docs/clause-mapping.md, generated from the code (a test keeps the document in step).
 * Regenerate: node --import tsx -e "import('./core/cec/clauses/mapping-doc.ts').then((m) => process.stdout.write(m.mappingTablesMarkdown()))"
 */
export const mappingTablesMarkdown = (): string => `${frameworkIds.flatMap(frameworkSection).join('\n')}\n`;
