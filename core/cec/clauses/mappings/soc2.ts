import { clause, type FrameworkMapping, primary, supporting } from '../mapping-dsl.ts';

/** SOC 2 (2017 Trust Services Criteria) against the six evidence keys; operating evidence for a Type II period. */
export const soc2Mapping: FrameworkMapping = {
  citation: 'AICPA TSP section 100 (2017 Trust Services Criteria)',
  clauses: {
    'CC3.2': clause(
      'The entity identifies risks to its objectives across the entity and analyses them to decide how to manage them.',
      primary('prri_records', 'Identified and scored AI risks.'),
      supporting('bias_reports', 'Fairness risks identified by analysis.'),
    ),
    'CC3.4': clause(
      'The entity identifies and assesses changes that could significantly affect the system of internal control.',
      primary('drift_events', 'Significant changes in data and model behaviour.'),
      supporting('gate_evaluations', 'Assessment of changes at release.'),
    ),
    'CC4.1': clause(
      'The entity runs ongoing and separate evaluations to confirm that controls are present and functioning.',
      primary('gate_evaluations', 'Each gate run is an evaluation of the controls it encodes.'),
      supporting('drift_events', 'Ongoing monitoring.'),
    ),
    'CC4.2': clause(
      'Control deficiencies are evaluated and communicated in time to those responsible for corrective action.',
      primary('gate_evaluations', 'Failed criteria are recorded deficiencies with the evaluator and approver.'),
      supporting('drift_events', 'Deficiencies surfacing in operation.'),
    ),
    'CC5.1': clause(
      'The entity selects and develops control activities that reduce risks to acceptable levels.',
      primary('gate_evaluations', 'Gate criteria are control activities.'),
      supporting('prri_records', 'The risks they reduce.'),
    ),
    'CC7.2': clause(
      'System components are monitored for anomalies that indicate malicious acts, natural disasters or errors.',
      primary('drift_events', 'Anomalies in model inputs and outputs.'),
    ),
    'CC8.1': clause(
      'Changes are authorised, designed, developed, tested, approved and implemented under control.',
      primary('gate_evaluations', 'Tested and approved changes (approver, criteria, decision).'),
      supporting('score_records', 'Test results behind the approval.'),
    ),
    'C1.1': clause(
      'Confidential information is identified and kept to meet confidentiality objectives.',
      primary('pii_detections', 'Personal data identified by type and source.'),
    ),
    'PI1.2': clause(
      'Controls over system inputs make them complete and accurate.',
      primary('drift_events', 'Input data drift against the reference.'),
      supporting('pii_detections', 'Inputs screened for personal data.'),
    ),
    'PI1.3': clause(
      'Controls over processing produce outputs that meet the processing specifications.',
      primary('score_records', 'Output quality against specification thresholds.'),
      supporting('drift_events', 'Processing behaviour over time.'),
    ),
    'PI1.4': clause(
      'Outputs are delivered completely, accurately and on time to meet objectives.',
      primary('score_records', 'Accuracy of outputs.'),
      supporting('bias_reports', 'Output accuracy across groups.'),
      supporting('pii_detections', 'Outputs screened for personal data.'),
    ),
    'P3.1': clause(
      "Personal information is collected consistently with the entity's privacy objectives.",
      primary('pii_detections', 'What personal information actually appears, by source.'),
    ),
    'P6.7': clause(
      'The entity can account for the personal information it holds and discloses.',
      primary('pii_detections', 'Entity counts per source account for the personal information held.'),
    ),
  },
  exclusions: {
    '*': 'Criterion evidenced by organisational controls, policies and IT records outside the AI evidence store.',
    CC1: 'Control environment: governance and people.',
    CC2: 'Communication and information processes.',
    CC6: 'Logical and physical access: IAM and facility records.',
    CC9: 'Business disruption and vendor management.',
    A1: 'Availability: capacity, backup and recovery records.',
    P1: 'Privacy notices are documents.',
    P2: 'Consent records are not held by the evidence store.',
    P5: 'Data subject access handling is outside the store.',
    P8: 'Inquiry and complaint handling is outside the store.',
  },
};
