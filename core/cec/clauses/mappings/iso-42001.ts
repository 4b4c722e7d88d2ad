import { clause, type FrameworkMapping, primary, supporting } from '../mapping-dsl.ts';

/** ISO/IEC 42001:2023 clauses 4-10 and Annex A controls against the six evidence keys. */
export const iso42001Mapping: FrameworkMapping = {
  citation: 'ISO/IEC 42001:2023',
  clauses: {
    '6.1.1': clause(
      'Plan actions for the risks and opportunities of the AI management system, including how to tell acceptable from unacceptable AI risk.',
      primary('prri_records', 'Risk-index records rank risks against defined levels.'),
    ),
    '6.1.2': clause(
      'Define and apply an AI risk assessment process that gives consistent, valid and comparable results.',
      primary('prri_records', 'Scored assessments with a methodology version are consistent and comparable.'),
      supporting('bias_reports', 'Fairness findings are inputs to the assessment.'),
      supporting('score_records', 'Performance findings are inputs to the assessment.'),
    ),
    '6.1.3': clause(
      'Define an AI risk treatment process: choose options and controls, and justify what is kept.',
      primary('gate_evaluations', 'Gate criteria are the controls; overrides with a reason justify accepted risk.'),
      supporting('prri_records', 'The risks being treated.'),
    ),
    '6.1.4': clause(
      'Define a process to assess the consequences of AI systems for individuals, groups and society.',
      primary('bias_reports', 'Group-level outcome differences are consequences for groups of individuals.'),
      supporting('prri_records', 'Impact factors in the risk index.'),
      supporting('pii_detections', 'Exposure of personal data is a consequence for individuals.'),
    ),
    '6.2': clause(
      'Set measurable AI objectives and plan how to reach them.',
      primary('score_records', 'Metrics with thresholds are measurable objectives and their status.'),
      supporting('gate_evaluations', 'Gates enforce the objectives at release.'),
    ),
    '6.3': clause(
      'Changes to the AI management system are planned and carried out in a controlled way.',
      primary('gate_evaluations', 'Every model change passes through a recorded gate.'),
    ),
    '8.1': clause(
      'Plan, implement and control the processes needed to meet requirements, and keep evidence that they ran as planned.',
      primary('gate_evaluations', 'Gate records show the controlled process ran for each release.'),
      supporting('drift_events', 'Operational monitoring records.'),
    ),
    '8.2': clause(
      'Perform AI risk assessments at planned intervals and when significant changes occur, and keep the results.',
      primary('prri_records', 'Dated risk-index records are the retained results.'),
    ),
    '8.3': clause(
      'Implement the AI risk treatment plan and keep the results.',
      primary('gate_evaluations', 'Enforced gate criteria are the treatment in operation.'),
      supporting('prri_records', 'Residual risk after treatment.'),
    ),
    '8.4': clause(
      'Perform AI system impact assessments at planned intervals and on significant change, and keep the results.',
      primary('bias_reports', 'Repeated fairness reports are the recorded impact results for groups.'),
      supporting('prri_records', 'Impact-weighted risk factors.'),
    ),
    '9.1': clause(
      'Decide what to monitor and measure, how and when, then analyse and evaluate the results.',
      primary('score_records', 'Measurement results with methods (metric, dataset).'),
      primary('drift_events', 'Monitoring results over time.'),
      supporting('bias_reports', 'Fairness measurement results.'),
    ),
    '10.1': clause(
      'Continually improve the suitability, adequacy and effectiveness of the AI management system.',
      primary('score_records', 'Score trends across model versions show improvement or decline.'),
      supporting('drift_events', 'Drift triggers improvement work.'),
    ),
    '10.2': clause(
      'React to nonconformities, correct them, find their causes and keep evidence of the actions taken.',
      primary('gate_evaluations', 'Failed gates are recorded nonconformities; overrides record the reasoned reaction.'),
      supporting('drift_events', 'Detected drift is a nonconformity in operation.'),
    ),
    'A.4.3': clause(
      'Document the data resources used for the AI system.',
      primary('score_records', 'Each score names the dataset, version and split it was measured on.'),
      supporting('pii_detections', 'What personal data the data resources hold.'),
    ),
    'A.5.2': clause(
      'Have a process to assess the potential consequences of the AI system throughout its life cycle.',
      primary('prri_records', 'The assessment process in use.'),
      supporting('bias_reports', 'Consequences for groups.'),
    ),
    'A.5.3': clause(
      'Document the results of AI system impact assessments and keep them for a defined period.',
      primary('prri_records', 'Retained, hash-chained assessment results.'),
      primary('bias_reports', 'Retained, hash-chained impact results for groups.'),
    ),
    'A.5.4': clause(
      'Assess and document the potential impacts of the AI system on individuals or groups of individuals.',
      primary('bias_reports', 'Per-group metrics and disparities.'),
      supporting('pii_detections', 'Personal data exposure of individuals.'),
    ),
    'A.5.5': clause(
      'Assess and document the potential societal impacts of the AI system.',
      primary('bias_reports', 'Systematic disparities across protected attributes are a societal impact.'),
      supporting('prri_records', 'Societal factors in the risk index.'),
    ),
    'A.6.1.3': clause(
      'Define and document the processes for responsible design and development of AI systems.',
      primary('gate_evaluations', 'Gate definitions and their results are the process as applied.'),
    ),
    'A.6.2.2': clause(
      'Specify and document requirements for new AI systems or material changes to existing ones.',
      primary('gate_evaluations', 'Gate criteria are the machine-checkable form of the requirements.'),
    ),
    'A.6.2.4': clause(
      'Define and document verification and validation measures and their criteria.',
      primary('score_records', 'Validation metrics against criteria.'),
      primary('bias_reports', 'Fairness validation against thresholds.'),
      supporting('gate_evaluations', 'The verification decision.'),
    ),
    'A.6.2.5': clause(
      'Document a deployment plan and meet its requirements before deployment.',
      primary('gate_evaluations', 'The pre-deployment gate decision.'),
    ),
    'A.6.2.6': clause(
      'Define what is needed to operate and monitor the AI system (performance, errors, drift).',
      primary('drift_events', 'Operational monitoring records.'),
      supporting('score_records', 'Production performance.'),
    ),
    'A.6.2.8': clause(
      'Decide at which life-cycle phases event logs are recorded, at least while the system is in use.',
      primary('drift_events', 'Events recorded while in use.'),
      primary('gate_evaluations', 'Events recorded at release.'),
      supporting('pii_detections', 'Scan events.'),
    ),
    'A.7.4': clause(
      'Define and document data quality requirements and make sure the data meets them.',
      primary('bias_reports', 'Representativeness of the data across groups.'),
      supporting('score_records', 'Dataset-level metrics.'),
      supporting('drift_events', 'Data drift against the reference data.'),
    ),
    'A.7.6': clause(
      'Define and document the criteria and methods for preparing data.',
      primary('pii_detections', 'Detection and redaction of personal data is a preparation step.'),
      supporting('bias_reports', 'Rebalancing decisions rest on bias findings.'),
    ),
    'A.8.2': clause(
      'Give users the information they need about the AI system.',
      primary('score_records', 'Performance figures users need.'),
      supporting('bias_reports', 'Known limitations across groups.'),
    ),
    'A.9.4': clause(
      'Use the AI system according to its intended uses and documentation.',
      primary('drift_events', 'Drift shows use moving outside the conditions the system was built for.'),
      supporting('score_records', 'Production performance within intended use.'),
    ),
  },
  exclusions: {
    '*': 'Management-system activity evidenced by policies, minutes and records outside the evidence store.',
    '7.5': 'Documented information is what the bundle itself is; its integrity is shown by chain_proof.json, not by a schema key.',
    '9.2': 'Internal audit is evidenced by audit programmes and reports.',
    '9.3': 'Management review is evidenced by review inputs and minutes.',
    'A.2': 'Policy control: evidenced by the AI policy documents.',
    'A.3': 'Organisational roles and reporting channels.',
    'A.4.2': 'Inventory documentation of resources.',
    'A.4.4': 'Tooling inventory.',
    'A.4.5': 'Computing resources inventory.',
    'A.4.6': 'Human resources and competence records.',
    'A.6.1.2': 'Objectives for responsible development are policy statements.',
    'A.6.2.3': 'Design documentation is a document set.',
    'A.6.2.7': 'Technical documentation is a document set.',
    'A.7.2': 'Data management definitions are documents.',
    'A.7.3': 'Acquisition records (sources, licences) are not held by the evidence store.',
    'A.7.5': 'Provenance records are not held by the evidence store (scores name datasets but not their origin).',
    'A.8.3': 'External reporting channels.',
    'A.8.4': 'Incident communication plans and notices.',
    'A.8.5': 'Communication with interested parties.',
    'A.9.2': 'Responsible-use processes are documents.',
    'A.9.3': 'Objectives for responsible use are policy statements.',
    'A.10': 'Third-party and customer agreements.',
  },
};
