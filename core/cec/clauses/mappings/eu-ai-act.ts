import { clause, type FrameworkMapping, primary, supporting } from '../mapping-dsl.ts';

/** EU AI Act, Chapter III Section 2 (Articles 9, 10, 12, 13, 14, 15) against the six evidence keys. */
export const euAiActMapping: FrameworkMapping = {
  citation: 'Regulation (EU) 2024/1689',
  clauses: {
    'Article 9(1)': clause(
      'A high-risk AI system needs a risk management system that is set up, written down, run and kept up to date.',
      primary('prri_records', 'Each risk-index record is a dated, repeatable risk assessment: the running system leaves a trail.'),
      supporting('gate_evaluations', 'Release gates show the risk process is applied, not only described.'),
    ),
    'Article 9(2)': {
      ...clause(
        'Risk management is a continuous loop over the whole lifecycle: identify and estimate known and foreseeable risks, evaluate risks seen after release, and adopt measures.',
        primary('prri_records', 'Risk scores with weighted factors are the identification and estimation steps of 9(2)(a)-(b).'),
        supporting('drift_events', 'Post-market monitoring data feeding the evaluation step of 9(2)(c).'),
        supporting('gate_evaluations', 'Gate decisions record the measures adopted under 9(2)(d).'),
      ),
      source: 'Regulation (EU) 2024/1689, Article 9(2)(a)-(d)',
    },
    'Article 9(5)': clause(
      'Residual risk, per hazard and overall, must be judged acceptable, and the mitigation choices behind that judgement recorded.',
      primary('prri_records', 'The risk level after mitigation is the residual risk the article asks to judge.'),
      primary('gate_evaluations', 'A pass or an approved override (approver and reason) is the recorded acceptance decision.'),
    ),
    'Article 9(6)': clause(
      'The system is tested to find the most appropriate risk measures and to show it performs consistently for its purpose.',
      primary('score_records', 'Test metrics against thresholds are the testing results.'),
      supporting('bias_reports', 'Fairness tests are part of choosing targeted measures.'),
      supporting('gate_evaluations', 'Gates tie test outcomes to a decision.'),
    ),
    'Article 9(7)': clause(
      'Testing may include testing in real-world conditions.',
      primary('score_records', 'Scores recorded on the production split are real-world test results.'),
      supporting('drift_events', 'Drift statistics compare live conditions with the reference data.'),
    ),
    'Article 9(8)': clause(
      'Tests run at suitable points during development and before release, against metrics and probabilistic thresholds defined beforehand.',
      primary('score_records', 'Each score carries its metric and threshold.'),
      primary('gate_evaluations', 'A gate evaluated before release, with predefined criteria, is the pre-market test point.'),
    ),
    'Article 9(9)': clause(
      'The risk process considers whether the system may adversely affect people under 18 or other vulnerable groups.',
      primary('bias_reports', 'Per-group metrics show differential impact on defined groups.'),
      supporting('prri_records', 'Risk factors can name the affected group.'),
    ),
    'Article 10(1)': clause(
      'Models trained on data are developed with training, validation and test sets that meet defined quality criteria.',
      primary('score_records', 'Scores name the dataset, its version and split, with a pass/fail against a threshold.'),
      supporting('bias_reports', 'Representativeness across groups is one of the quality criteria.'),
    ),
    'Article 10(2)': {
      ...clause(
        'Data sets are subject to governance practices: design choices, collection, preparation, assumptions, and examination and mitigation of possible biases.',
        primary('bias_reports', 'The bias examination and detection of 10(2)(f)-(g).'),
        supporting('pii_detections', 'Scanning data for personal data is a preparation and governance step (10(2)(c)).'),
        supporting('score_records', 'Dataset-level metrics document the data used.'),
      ),
      source: 'Regulation (EU) 2024/1689, Article 10(2)(c), (f), (g)',
    },
    'Article 10(3)': clause(
      'Data sets are relevant, sufficiently representative and, as far as possible, free of errors and complete for the purpose.',
      primary('bias_reports', 'Group sample sizes and disparities measure representativeness.'),
      supporting('score_records', 'Metrics per split evidence error rates and sample sizes.'),
    ),
    'Article 10(4)': clause(
      'Data sets reflect the geographical, contextual, behavioural or functional setting in which the system is used.',
      primary('drift_events', 'Drift between reference data and deployment data shows whether the data fits the setting.'),
      supporting('score_records', 'Production-split scores show fitness in the real setting.'),
    ),
    'Article 10(5)': clause(
      'Special categories of personal data may be processed only where strictly necessary to detect and correct bias, under safeguards.',
      primary('bias_reports', 'The bias detection that justifies the processing.'),
      primary('pii_detections', 'Scans show where personal data appears and whether it was redacted (a safeguard).'),
    ),
    'Article 10(6)': clause(
      'Where no model is trained, the data requirements apply to the test data sets only.',
      primary('score_records', 'Scores on the test split evidence the test data used.'),
    ),
    'Article 12(1)': clause(
      'The system technically allows events to be recorded automatically over its lifetime.',
      primary('drift_events', 'Runtime monitoring events recorded automatically while the system runs.'),
      primary('gate_evaluations', 'Every release decision is recorded automatically, with time and version.'),
      supporting('pii_detections', 'Automatically recorded scan events.'),
    ),
    'Article 12(2)': {
      ...clause(
        'Logging gives traceability appropriate to the purpose: situations that may present a risk, post-market monitoring and operational monitoring.',
        primary(
          'drift_events',
          'Detected drift is a situation that may present a risk (12(2)(a)) and feeds post-market monitoring (12(2)(b)-(c)).',
        ),
        supporting('prri_records', 'Risk-level changes over time.'),
        supporting('gate_evaluations', 'Which version was released, when, and on what evidence.'),
      ),
      source: 'Regulation (EU) 2024/1689, Article 12(2)(a)-(c)',
    },
    'Article 13(1)': clause(
      'The system is transparent enough for deployers to interpret its output and use it appropriately.',
      primary('score_records', 'Published performance figures are what a deployer interprets output against.'),
      supporting('bias_reports', 'Known group-level differences in behaviour.'),
    ),
    'Article 13(3)': {
      ...clause(
        'Instructions for use state at least the provider, the characteristics, capabilities and limits of performance (accuracy, robustness, groups), oversight measures and logging.',
        primary('score_records', 'Accuracy and robustness metrics of 13(3)(b)(ii).'),
        primary('bias_reports', 'Performance for specific persons or groups of 13(3)(b)(v).'),
        supporting('gate_evaluations', 'Human oversight measures of 13(3)(d).'),
        supporting('drift_events', 'Logging mechanisms of 13(3)(f).'),
      ),
      source: 'Regulation (EU) 2024/1689, Article 13(3)(b), (d), (f)',
    },
    'Article 14(1)': clause(
      'The system is designed so that natural persons can oversee it effectively while it is in use.',
      primary('gate_evaluations', 'Evaluator and approver fields record human decisions on the system.'),
    ),
    'Article 14(2)': clause(
      'Human oversight aims to prevent or minimise risks to health, safety or fundamental rights.',
      primary('gate_evaluations', 'Gates are where people stop a risky release.'),
      supporting('prri_records', 'The risks the oversight is aimed at.'),
    ),
    'Article 14(3)': clause(
      'Oversight measures match the risks, autonomy and context of use, built in by the provider or left to the deployer.',
      primary('gate_evaluations', 'Gate criteria show the measures in place.'),
      supporting('prri_records', 'Risk level against which proportionality is judged.'),
    ),
    'Article 14(4)': {
      ...clause(
        'Overseers can understand capacities and limits, detect anomalies, avoid automation bias, interpret and override output, and stop the system.',
        primary(
          'gate_evaluations',
          'Override decisions with approver and reason are the recorded power to disregard or reverse output (14(4)(d)).',
        ),
        supporting('drift_events', 'Alerts that let overseers detect anomalies (14(4)(a)).'),
        supporting('score_records', 'Documented capacities and limitations (14(4)(a)).'),
      ),
      source: 'Regulation (EU) 2024/1689, Article 14(4)(a), (d), (e)',
    },
    'Article 15(1)': clause(
      'The system reaches an appropriate level of accuracy, robustness and cybersecurity and keeps it throughout its lifecycle.',
      primary('score_records', 'Accuracy and robustness metrics against thresholds.'),
      primary('drift_events', 'Monitoring that performance stays consistent over the lifecycle.'),
      supporting('gate_evaluations', 'Releases blocked when levels are not met.'),
    ),
    'Article 15(3)': clause(
      'Accuracy levels and the relevant metrics are declared in the instructions for use.',
      primary('score_records', 'The declared metrics and their measured values.'),
    ),
    'Article 15(4)': clause(
      'The system is resilient to errors, faults and inconsistencies, and systems that keep learning avoid biased feedback loops.',
      primary('drift_events', 'Prediction and concept drift reveal feedback loops and inconsistencies.'),
      supporting('bias_reports', 'Repeated bias measurements show whether feedback loops skew outcomes.'),
      supporting('score_records', 'Robustness metrics.'),
    ),
    'Article 15(5)': clause(
      'The system resists attempts by unauthorised third parties to alter its use, outputs or performance (data poisoning, adversarial examples, confidentiality attacks).',
      primary('gate_evaluations', 'Gates with security and robustness criteria evidence the controls applied before release.'),
      supporting('score_records', 'Scores on adversarial or perturbed test sets.'),
      supporting('pii_detections', 'Scans of outputs for leaked personal data (confidentiality attacks).'),
    ),
  },
  exclusions: {
    '*': 'Organisational or scoping provision: evidenced by the risk management file and procedures, not by evidence records.',
    'Article 9(3)': 'Defines the scope of the risks to be managed; a scoping rule, not an activity that leaves records.',
    'Article 9(4)': 'Design rationale on how measures interact; shown in the risk management file, not in event records.',
    'Article 9(10)': 'Integration with other Union-law procedures is organisational.',
    'Article 12(3)':
      'Specific to remote biometric identification systems; the store does not hold the reference databases or matched input the paragraph lists.',
    'Article 13(2)': 'Delivery of instructions for use is a document obligation, not an event.',
    'Article 14(5)': 'Specific to remote biometric identification (two-person verification).',
    'Article 15(2)': 'Addressed to the Commission (benchmarks and measurement methodologies), not to the provider.',
  },
};
