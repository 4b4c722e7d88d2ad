import { clause, type FrameworkMapping, primary, supporting } from '../mapping-dsl.ts';

/**
 * ISO/IEC 27001:2022 Annex A against the six evidence keys. Annex A is an information-security catalogue:
 * only the controls that AI evidence records genuinely speak to are mapped; the others are excluded by theme.
 */
export const iso27001Mapping: FrameworkMapping = {
  citation: 'ISO/IEC 27001:2022 Annex A',
  clauses: {
    'A.5.12': clause(
      "Classify information by the organisation's security needs (confidentiality, integrity, availability, interested parties).",
      primary('pii_detections', 'Entity types found in a source classify it as holding personal data.'),
    ),
    'A.5.34': clause(
      'Identify and meet the requirements for privacy and the protection of personal data (PII).',
      primary('pii_detections', 'Where PII is found, of which types, and whether it was redacted.'),
    ),
    'A.8.11': clause(
      'Mask data (for example pseudonymise or redact) in line with the access-control policy and legal requirements.',
      primary('pii_detections', 'The redacted flag records masking applied after detection.'),
    ),
    'A.8.12': clause(
      'Apply data-leakage prevention to systems, networks and devices that handle sensitive information.',
      primary('pii_detections', 'Scans of prompts, outputs and data sets detect leaking personal data.'),
    ),
    'A.8.15': clause(
      'Produce, keep, protect and analyse logs of activities, exceptions, faults and other relevant events.',
      primary('drift_events', 'Faults and exceptions in model behaviour.'),
      primary('gate_evaluations', 'Release activities with actor and outcome.'),
      supporting('pii_detections', 'Scan events.'),
    ),
    'A.8.16': clause(
      'Monitor networks, systems and applications for anomalous behaviour and act on it.',
      primary('drift_events', 'Anomalous model behaviour detected against a reference.'),
      supporting('pii_detections', 'Anomalous personal data in flows.'),
    ),
    'A.8.25': clause(
      'Set and apply rules for the secure development of software and systems.',
      primary('gate_evaluations', 'Release gates are the applied development rules.'),
    ),
    'A.8.29': clause(
      'Define and run security testing processes in the development life cycle and at acceptance.',
      primary('gate_evaluations', 'Acceptance decisions with their test criteria.'),
      supporting('score_records', 'Robustness test results.'),
    ),
    'A.8.32': clause(
      'Changes to information processing facilities and systems follow change management procedures.',
      primary('gate_evaluations', 'Each model version change is evaluated and approved at a gate.'),
    ),
    'A.8.33': clause(
      'Select, protect and manage test information appropriately.',
      primary('pii_detections', 'Test data sets scanned for personal data before use.'),
    ),
  },
  exclusions: {
    '*': 'Information-security control outside the AI evidence records.',
    'A.5': 'Organisational control: evidenced by policies, procedures and their records, not by AI evidence records.',
    'A.5.28': 'Answered by the evidence store and chain_proof.json as a whole, not by one schema key.',
    'A.5.33': 'Record protection is shown by the hash chain and signatures of the bundle, not by a schema key.',
    'A.6': 'People control: evidenced by HR records.',
    'A.7': 'Physical control: evidenced by facility records.',
    'A.8': 'Technological control of IT infrastructure: evidenced by configuration and IT logs, not AI evidence records.',
  },
};
