import { createHash } from 'node:crypto';
import type { BundleContents } from './read-bundle.ts';

/** OSCAL version the export targets; tests validate every export against NIST's 1.1.3 JSON schema. */
export const oscalVersion = '1.1.3';
/** Namespace of the workbench's own props (OSCAL requires `ns` on props outside its own vocabulary). */
const ns = 'urn:svc:compliance-workbench:oscal';

/** A stable UUID (version-5 layout) from the bundle digest and a name: the same bundle exports the same ids. */
const stableUuid = (seed: string, name: string): string => {
  const hex = createHash('sha256').update(`${seed}\n${name}`).digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** An OSCAL token (`control-id`, `target-id`) from a framework clause id such as "Article 9(1)" or "CC7.2". */
export const controlToken = (framework: string, clauseId: string): string =>
  `${framework}_${clauseId
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '')}`;

const prop = (name: string, value: string | number) => ({ name, ns, value: String(value) });

type Finding = {
  uuid: string;
  title: string;
  description: string;
  props: ReturnType<typeof prop>[];
  target: { type: 'objective-id'; 'target-id': string; status: { state: 'satisfied' | 'not-satisfied'; reason: 'pass' | 'fail' } };
  'related-observations'?: { 'observation-uuid': string }[];
};

/**
 * A bundle's clause map and evidence summary as an OSCAL 1.1.3 Assessment Results document: one observation per
 * schema key (counts, outcomes, the entry's SHA-256 from the signed manifest), one finding per framework clause
 * (SATISFIED → satisfied, PARTIAL and GAP → not-satisfied, the workbench status and reasons kept as props and
 * text), the bundle ZIP as a back-matter resource with its SHA-256, and the verification verdict as an observation.
 */
export const toAssessmentResults = (bundle: BundleContents) => {
  const { manifest, clause_map: map, verification } = bundle;
  const id = (name: string) => stableUuid(bundle.sha256, name);
  const bundleResource = id('resource:bundle');
  const planResource = id('resource:plan');
  const collected = manifest.generated_at;
  const bundleEvidence = (description: string, entry?: string) => ({
    href: `#${bundleResource}`,
    description,
    ...(entry !== undefined && manifest.entries[entry] !== undefined
      ? { props: [prop('bundle-entry', entry), prop('entry-sha256', manifest.entries[entry].sha256)] }
      : {}),
  });

  const keys = Object.keys(map.record_counts);
  const observations = [
    {
      uuid: id('observation:verification'),
      title: 'Bundle verification',
      description: `Offline verification of bundle ${manifest.bundle_id}: ${verification.overall_valid ? 'valid' : 'INVALID'}. ${verification.checks
        .map((check) => `${check.name} ${check.status}`)
        .join(', ')}.${verification.errors.length > 0 ? ` Errors: ${verification.errors.join('; ')}` : ''}`,
      props: [prop('overall-valid', String(verification.overall_valid)), prop('timestamp-kind', verification.timestamp_kind ?? 'none')],
      methods: ['TEST'],
      'relevant-evidence': [bundleEvidence('The evidence bundle ZIP (manifest, chain proof, signatures, timestamp)', 'chain_proof.json')],
      collected: verification.verified_at,
    },
    ...keys.map((key) => {
      const summary = map.evidence_summary?.[key];
      const count = map.record_counts[key] ?? 0;
      const outcome =
        summary === undefined
          ? 'outcomes not recorded (clause map schema_version 1)'
          : `${summary.series} series: ${summary.passing} passing, ${summary.failing} failing, ${summary.unknown} without an outcome field` +
            (summary.resolved > 0 ? `, ${summary.resolved} resolved by a later record` : '') +
            (summary.latest_at === null ? '' : `; latest record ${summary.latest_at}`);
      return {
        uuid: id(`observation:${key}`),
        title: `Evidence: ${key}`,
        description: `${count} ${key} record(s) of project ${map.project_id} from ${map.date_range.from} to ${map.date_range.to}; ${outcome}.`,
        props: [
          prop('schema-key', key),
          prop('record-count', count),
          ...(summary === undefined
            ? []
            : [
                prop('series', summary.series),
                prop('passing', summary.passing),
                prop('failing', summary.failing),
                prop('no-outcome', summary.unknown),
              ]),
        ],
        methods: ['TEST'],
        'relevant-evidence': [bundleEvidence(`${key}/records.ndjson in the bundle`, `${key}/records.ndjson`)],
        collected,
      };
    }),
  ];
  const observationOf = new Map(keys.map((key) => [key, id(`observation:${key}`)]));

  const findings: Finding[] = map.entries.map((entry) => {
    const token = controlToken(entry.framework, entry.clause_id);
    const failed = (entry.reasons ?? []).filter((reason) => !reason.ok);
    const why =
      entry.reasons === undefined
        ? `Evidence in ${entry.evidence_count} record(s).`
        : failed.length === 0
          ? 'Every primary key has records, passing latest outcomes and the required cadence.'
          : `${failed.map((reason) => `${reason.schema_key} (${reason.relationship}): ${reason.message}`).join('; ')}.`;
    const related = entry.evidence.map((item) => observationOf.get(item.schema_key)).filter((uuid): uuid is string => uuid !== undefined);
    return {
      uuid: id(`finding:${token}`),
      title: `${entry.clause_id} ${entry.clause_name}`,
      description: `${entry.description} Workbench status ${entry.status}. ${why}`,
      props: [
        prop('framework', entry.framework),
        prop('clause-id', entry.clause_id),
        prop('workbench-status', entry.status),
        prop('evidence-count', entry.evidence_count),
        ...failed.flatMap((reason) => reason.records.map((record) => prop('failing-record', `${reason.schema_key}:${record.record_id}`))),
      ],
      target: {
        type: 'objective-id',
        'target-id': token,
        status: entry.status === 'SATISFIED' ? { state: 'satisfied', reason: 'pass' } : { state: 'not-satisfied', reason: 'fail' },
      },
      ...(related.length > 0 ? { 'related-observations': related.map((uuid) => ({ 'observation-uuid': uuid })) } : {}),
    };
  });

  const controls = [...new Set(map.entries.map((entry) => controlToken(entry.framework, entry.clause_id)))];
  return {
    'assessment-results': {
      uuid: id('assessment-results'),
      metadata: {
        title: `Evidence assessment of ${map.project_id}, ${map.date_range.from} to ${map.date_range.to}`,
        'last-modified': collected,
        version: manifest.bundle_id,
        'oscal-version': oscalVersion,
        props: [prop('project-id', map.project_id), prop('rule-version', map.rule_version ?? 'counts/1')],
      },
      'import-ap': { href: `#${planResource}` },
      results: [
        {
          uuid: id('result'),
          title: `Clause map of bundle ${manifest.bundle_id}`,
          description: `Frameworks ${map.frameworks.join(', ')}; statuses computed by the workbench rule ${map.rule_version ?? 'counts/1'} (docs/clause-mapping.md) from the records in the bundle.`,
          start: `${map.date_range.from}T00:00:00Z`,
          end: `${map.date_range.to}T23:59:59Z`,
          'reviewed-controls': { 'control-selections': [{ 'include-controls': controls.map((token) => ({ 'control-id': token })) }] },
          observations,
          ...(findings.length > 0 ? { findings } : {}),
        },
      ],
      'back-matter': {
        resources: [
          {
            uuid: bundleResource,
            title: `Evidence bundle ${manifest.bundle_id}`,
            description: `Signed evidence bundle (ZIP) of project ${map.project_id}, ${bundle.size} bytes.`,
            rlinks: [{ href: bundle.file_name, 'media-type': 'application/zip', hashes: [{ algorithm: 'SHA-256', value: bundle.sha256 }] }],
          },
          {
            uuid: planResource,
            title: 'Assessment scope',
            description: `No separate OSCAL assessment plan: the scope is the bundle's project, date range and frameworks (${map.frameworks.join(', ')}).`,
          },
        ],
      },
    },
  };
};
export type AssessmentResults = ReturnType<typeof toAssessmentResults>;
