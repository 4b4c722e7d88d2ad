import { clause, type FrameworkMapping, primary, supporting } from '../mapping-dsl.ts';

/** NIST AI RMF 1.0 core subcategories against the six evidence keys. */
export const nistAiRmfMapping: FrameworkMapping = {
  citation: 'NIST AI 100-1 (AI RMF 1.0)',
  clauses: {
    'GOVERN 1.4': clause(
      'The risk management process and its outcomes are made transparent through policies, procedures and other controls.',
      primary('prri_records', 'Risk outcomes recorded with their factors and methodology.'),
      supporting('gate_evaluations', 'Controls applied and their results.'),
    ),
    'GOVERN 1.5': clause(
      'Ongoing monitoring and periodic review of the risk management process are planned, with roles and review frequency defined.',
      primary('drift_events', 'Ongoing monitoring records.'),
      supporting('prri_records', 'Periodic risk reviews.'),
    ),
    'GOVERN 4.3': clause(
      'Practices exist for AI testing, identifying incidents and sharing information.',
      primary('score_records', 'Testing results.'),
      supporting('drift_events', 'Identified operational incidents.'),
      supporting('gate_evaluations', 'Testing tied to decisions.'),
    ),
    'MAP 1.5': clause(
      "The organisation's risk tolerances are determined and documented.",
      primary('gate_evaluations', 'Gate thresholds are the operational statement of tolerance.'),
      supporting('prri_records', 'Risk levels the tolerances are expressed in.'),
    ),
    'MAP 2.3': clause(
      'Scientific integrity and test, evaluation, verification and validation (TEVV) considerations are identified and documented, including experimental design and data.',
      primary('score_records', 'Metrics, datasets and splits document the TEVV design.'),
      supporting('gate_evaluations', 'Validation criteria.'),
    ),
    'MAP 3.2': clause(
      'The potential costs of AI errors or system functionality, including non-monetary costs, are examined and documented.',
      primary('prri_records', 'Risk factors weigh the consequences of errors.'),
    ),
    'MAP 4.1': clause(
      'Approaches for mapping technology and legal risks of components, including third-party data and software, are followed and documented.',
      primary('prri_records', 'Component risks as weighted factors.'),
      supporting('pii_detections', 'Privacy (legal) risk of the data components.'),
    ),
    'MAP 4.2': clause(
      'Internal risk controls for AI system components are identified and documented.',
      primary('gate_evaluations', 'Gate criteria are the internal controls.'),
    ),
    'MAP 5.1': clause(
      'The likelihood and magnitude of each identified impact are identified and documented.',
      primary('prri_records', 'Scored likelihood and magnitude as risk factors.'),
      supporting('bias_reports', 'Magnitude of impact on groups.'),
    ),
    'MEASURE 1.1': clause(
      'Approaches and metrics for the most significant AI risks are selected and applied, and risks not measured are documented.',
      primary('score_records', 'The metrics applied.'),
      supporting('bias_reports', 'Fairness metrics applied.'),
      supporting('prri_records', 'Which risks are deemed significant.'),
    ),
    'MEASURE 1.2': clause(
      'The appropriateness of metrics and the effectiveness of existing controls are regularly reassessed.',
      primary('score_records', 'Repeated metrics over time.'),
      supporting('gate_evaluations', 'Control results over time.'),
    ),
    'MEASURE 2.1': clause(
      'Test sets, metrics and details about the tools used during TEVV are documented.',
      primary('score_records', 'Dataset, version, split, metric and sample size per result.'),
      supporting('bias_reports', 'Fairness test details.'),
    ),
    'MEASURE 2.3': clause(
      'Performance or assurance criteria are measured qualitatively or quantitatively under conditions like deployment.',
      primary('score_records', 'Scores on the production or holdout split.'),
      supporting('drift_events', 'Deployment conditions compared with the reference.'),
    ),
    'MEASURE 2.4': clause(
      'The functionality and behaviour of the AI system and its components are monitored in production.',
      primary('drift_events', 'Production monitoring records.'),
      supporting('score_records', 'Production-split performance.'),
    ),
    'MEASURE 2.5': clause(
      'The system is shown to be valid and reliable, and the limits of generalisation beyond its development conditions are documented.',
      primary('score_records', 'Validity and reliability metrics.'),
      supporting('drift_events', 'Where conditions move beyond those of development.'),
    ),
    'MEASURE 2.6': clause(
      'The system is evaluated regularly for safety risks, and residual risk stays within tolerance.',
      primary('prri_records', 'Regular risk evaluations with levels.'),
      supporting('gate_evaluations', 'Releases held to the tolerance.'),
    ),
    'MEASURE 2.7': clause(
      'AI system security and resilience are evaluated and documented.',
      primary('gate_evaluations', 'Security and robustness criteria at release.'),
      supporting('score_records', 'Robustness metrics.'),
      supporting('drift_events', 'Resilience in operation.'),
    ),
    'MEASURE 2.8': clause(
      'Risks associated with transparency and accountability are examined and documented.',
      primary('gate_evaluations', 'Evaluator, approver and reason make decisions accountable.'),
      supporting('prri_records', 'Transparency factors.'),
    ),
    'MEASURE 2.10': clause(
      'Privacy risk of the AI system is examined and documented.',
      primary('pii_detections', 'Personal data found, by entity type, count and score.'),
    ),
    'MEASURE 2.11': clause(
      'Fairness and bias are evaluated and the results documented.',
      primary('bias_reports', 'Fairness metrics per protected attribute and group.'),
    ),
    'MEASURE 3.1': clause(
      'Approaches, personnel and documentation are in place to identify and track existing, unanticipated and emergent risks.',
      primary('drift_events', 'Emergent risk seen as drift.'),
      primary('prri_records', 'Tracked risk levels.'),
    ),
    'MEASURE 3.2': clause(
      'Risk tracking approaches are considered where risks are hard to assess with available measurement techniques.',
      primary('prri_records', 'Expert-weighted risk factors where direct metrics are lacking.'),
    ),
    'MEASURE 4.1': clause(
      'Measurement approaches for identifying risks are connected to the deployment context.',
      primary('drift_events', 'Measurements taken in the deployment context.'),
      supporting('score_records', 'Production-split metrics.'),
    ),
    'MEASURE 4.3': clause(
      'Measurable performance improvements or declines are identified and documented.',
      primary('score_records', 'Scores across versions and time.'),
      primary('drift_events', 'Declines detected in operation.'),
    ),
    'MANAGE 1.1': clause(
      'A decision is made on whether the system achieves its purpose and whether development or deployment should proceed.',
      primary('gate_evaluations', 'The go / no-go decision with its criteria.'),
      supporting('prri_records', 'The risk picture behind the decision.'),
    ),
    'MANAGE 1.2': clause(
      'Treatment of documented risks is prioritised by impact, likelihood and available resources.',
      primary('prri_records', 'Risk scores and levels give the priority order.'),
    ),
    'MANAGE 1.3': clause(
      'Responses to the high-priority risks are developed, planned and documented (mitigate, transfer, avoid or accept).',
      primary('prri_records', 'High-priority risks identified.'),
      supporting('gate_evaluations', 'Responses enforced or accepted at release.'),
    ),
    'MANAGE 1.4': clause(
      'Negative residual risks to downstream acquirers and end users are documented.',
      primary('prri_records', 'Residual risk levels.'),
      supporting('gate_evaluations', 'Overrides record accepted residual risk with a reason.'),
    ),
    'MANAGE 2.2': clause(
      'Mechanisms are in place to sustain the value of deployed AI systems.',
      primary('drift_events', 'Monitoring that catches degradation.'),
      supporting('score_records', 'Performance sustained over time.'),
    ),
    'MANAGE 2.3': clause(
      'Procedures exist to respond to and recover from previously unknown risks when they are identified.',
      primary('drift_events', 'Unknown risks surfacing as detected drift.'),
    ),
    'MANAGE 2.4': clause(
      'Mechanisms exist to supersede, disengage or deactivate AI systems that perform inconsistently with their intended use.',
      primary('gate_evaluations', 'Fail decisions that stop a release.'),
      supporting('drift_events', 'The signal that performance is inconsistent.'),
    ),
    'MANAGE 3.2': clause(
      'Pre-trained models used in development are monitored as part of regular monitoring and maintenance.',
      primary('drift_events', 'Monitoring per model id and version.'),
      supporting('score_records', 'Re-evaluation of the pre-trained model.'),
    ),
    'MANAGE 4.1': clause(
      'Post-deployment monitoring plans are implemented, including input capture, appeal, incident response and change management.',
      primary('drift_events', 'Post-deployment monitoring in action.'),
      supporting('score_records', 'Production metrics.'),
      supporting('pii_detections', 'Monitoring of inputs for personal data.'),
    ),
    'MANAGE 4.2': clause(
      'Measurable activities for continual improvement are integrated into system updates.',
      primary('gate_evaluations', 'Each update passes gates with measurable criteria.'),
      supporting('score_records', 'Improvement measured across versions.'),
    ),
    'MANAGE 4.3': clause(
      'Incidents and errors are communicated to relevant actors, and tracking, response and recovery are followed and documented.',
      primary('drift_events', 'Tracked operational incidents.'),
    ),
  },
  exclusions: {
    '*': 'Governance, context or organisational outcome: evidenced by policies, charters and documentation rather than evidence records.',
    'GOVERN 6': 'Third-party policies and contingency plans are documents.',
    'MEASURE 1.3': 'Independence of assessors is a property of people and organisation.',
    'MEASURE 2.2': 'Human-subject protection is evidenced by review-board approvals.',
    'MEASURE 2.9': 'Explainability artefacts are not a schema key.',
    'MEASURE 2.12': 'Environmental impact measurements are not a schema key.',
    'MEASURE 2.13': 'Evaluation of the TEVV process itself is a review activity.',
    'MEASURE 3.3': 'End-user feedback and appeal processes are not recorded in the store.',
    'MEASURE 4.2': 'Expert and stakeholder input is recorded in reviews, not evidence records.',
    'MANAGE 2.1': 'Resource and alternative analysis is a planning document.',
    'MANAGE 3.1': 'Third-party resource monitoring is outside the store.',
  },
};
