import type { DpaRequest, PartyDetails } from '../../contracts/dpa.ts';
import { resolveGoverningLaw } from './law.ts';
import { escapeMarkdown as md } from './markdown.ts';
import { sccModuleName, type TransferMechanismId, transferMechanisms } from '../../contracts/dpa-mechanisms.ts';

/** Bump when the wording changes: a stored document names the template that produced it. */
export const templateVersion = 'dpa-art28/1.0.0';

const defaultDataTypes = [
  'identification and contact data (such as names, e-mail addresses, telephone numbers and postal addresses)',
  'account and usage data relating to the services (such as user identifiers, log records and timestamps)',
  'content that the Controller or its users submit to the services, including input to and output of AI systems',
];
const defaultPurpose =
  'The provision of the services agreed between the parties in their principal agreement, including the operation, ' +
  'monitoring, evaluation and support of AI systems and related software for the Controller.';

const party = (role: string, details: PartyDetails): string =>
  `**${role}:** ${md(details.name)}, ${md(details.address)}` + (details.contact === undefined ? '' : ` (contact: ${md(details.contact)})`);

const partyRows = (details: PartyDetails): string[] => [
  `| Name | ${md(details.name)} |`,
  `| Address | ${md(details.address)} |`,
  `| Contact | ${details.contact === undefined ? 'as notified in writing' : md(details.contact)} |`,
];

const mechanismClause = (id: TransferMechanismId): string => {
  const name = transferMechanisms[id].displayName;
  const module = sccModuleName(id);
  if (module !== undefined) {
    return (
      `- **${name}.** The parties incorporate the standard contractual clauses adopted by Commission Implementing ` +
      `Decision (EU) 2021/914, **Module ${module}**, by reference. Annexes I to III of this Agreement serve as the ` +
      'corresponding annexes of those clauses, the optional docking clause (Clause 7) applies, and in Clause 9 ' +
      'option 2 (general written authorisation) applies with the notice period of section 5. If the clauses and ' +
      'this Agreement conflict, the clauses prevail.'
    );
  }
  switch (id) {
    case 'none_eea_only':
      return (
        `- **${name}.** The Processor and its sub-processors process the personal data only within the European ` +
        'Economic Area. Any transfer to a third country or an international organisation needs the prior written ' +
        'consent of the Controller and one of the safeguards of Chapter V GDPR.'
      );
    case 'adequacy_decision':
      return (
        `- **${name}.** Transfers are made only to countries, territories or sectors for which the European ` +
        'Commission has adopted an adequacy decision under Article 45 GDPR. If the decision is repealed or ' +
        'suspended, the Processor informs the Controller without delay and the parties agree on another safeguard.'
      );
    case 'bcr':
      return (
        `- **${name}.** Transfers within the Processor's group of undertakings are made under binding corporate ` +
        'rules approved by the competent supervisory authority under Article 47 GDPR. The Processor keeps the ' +
        'rules in force and informs the Controller of any change that affects the personal data.'
      );
    case 'derogation_art49':
      return (
        `- **${name}.** A transfer may rely on a derogation of Article 49 GDPR only where the Controller has ` +
        'documented, for that specific transfer, that the conditions of the derogation are met. Such transfers ' +
        'are occasional and not repetitive.'
      );
    default:
      return `- **${name}.**`;
  }
};

const subProcessorTable = (request: DpaRequest): string[] => {
  const subs = request.sub_processors ?? [];
  if (subs.length === 0) {
    return ['No sub-processor is authorised at the date of signature. Sub-processors may be engaged later only under ' + 'section 5.'];
  }
  return [
    '| Sub-processor | Location | Processing activity |',
    '| --- | --- | --- |',
    ...subs.map((sub) => `| ${md(sub.name)} | ${md(sub.location)} | ${md(sub.activity)} |`),
  ];
};

/**
 * Renders the full Data Processing Agreement as Markdown. Pure: the same validated request always gives the
 * same text (no dates or ids inside), which is what makes stored documents reproducible.
 */
export const renderDpaMarkdown = (request: DpaRequest): string => {
  const controller = request.controller_details;
  const processor = request.processor_details;
  const law = resolveGoverningLaw(request.law_of_contract);
  const days = request.retention_period_days;
  const dataTypes = request.data_categories ?? defaultDataTypes;
  const purpose = request.processing_purpose === undefined ? defaultPurpose : md(request.processing_purpose);
  const list = (values: readonly string[]) => values.map((value) => `- ${md(value)}`);
  const sccNamed = request.transfer_mechanisms.some((id) => sccModuleName(id) !== undefined);

  return [
    '# Data Processing Agreement',
    '',
    'Under Article 28 of Regulation (EU) 2016/679 (General Data Protection Regulation, "GDPR")',
    '',
    `Template version: ${templateVersion}. Project: ${md(request.project_id)}.`,
    '',
    '## 1. Parties',
    '',
    'This Data Processing Agreement ("Agreement") is made between:',
    '',
    `- ${party('Controller', controller)}, which decides on the purposes and means of the processing; and`,
    `- ${party('Processor', processor)}, which processes personal data on behalf of the Controller.`,
    '',
    'It supplements the principal agreement under which the Processor provides services to the Controller (the ' +
      '"principal agreement"). Terms defined in Article 4 GDPR have the same meaning here.',
    '',
    '## 2. Subject matter, duration, nature and purpose of the processing',
    '',
    '**Subject matter.** The processing of personal data by the Processor in providing the services under the ' + 'principal agreement.',
    '',
    '**Duration.** The processing lasts for the term of the principal agreement and ends when all personal data ' +
      'has been deleted or returned under section 9.',
    '',
    '**Nature.** Collection, recording, storage, organisation, retrieval, analysis, use, transmission and erasure ' +
      'of personal data by automated means, as needed to provide the services.',
    '',
    `**Purpose.** ${purpose}`,
    '',
    '## 3. Types of personal data and categories of data subjects',
    '',
    '**Types of personal data.** The Processor processes the following types of personal data:',
    '',
    ...list(dataTypes),
    '',
    '**Categories of data subjects.** The personal data relates to the following categories of data subjects:',
    '',
    ...list(request.subject_categories),
    '',
    'No special categories of personal data (Article 9 GDPR) or data relating to criminal convictions (Article 10 ' +
      'GDPR) are processed unless the Controller instructs so in writing and additional safeguards are agreed.',
    '',
    '## 4. Obligations of the Processor (Article 28(3) GDPR)',
    '',
    'The Processor:',
    '',
    '- **(a) Documented instructions.** processes the personal data only on documented instructions from the ' +
      'Controller, including for transfers to a third country or an international organisation, unless Union or ' +
      'Member State law requires otherwise; in that case it informs the Controller of that legal requirement ' +
      'before processing unless the law prohibits this on important grounds of public interest. It informs the ' +
      'Controller at once if, in its opinion, an instruction infringes data protection law.',
    '- **(b) Confidentiality.** ensures that every person authorised to process the personal data has committed ' +
      'to confidentiality or is under an appropriate statutory obligation of confidentiality.',
    '- **(c) Security.** takes all measures required by Article 32 GDPR, at least those of Annex II.',
    '- **(d) Sub-processors.** respects the conditions of Article 28(2) and 28(4) GDPR for engaging another ' +
      'processor, as set out in section 5.',
    '- **(e) Data subject rights.** taking into account the nature of the processing, assists the Controller by ' +
      'appropriate technical and organisational measures, insofar as possible, in responding to requests of data ' +
      'subjects exercising their rights under Chapter III GDPR (section 8).',
    '- **(f) Assistance with Articles 32 to 36.** assists the Controller in ensuring compliance with Articles 32 ' +
      'to 36 GDPR, taking into account the nature of the processing and the information available to it ' +
      '(sections 6 to 8).',
    '- **(g) Deletion or return.** at the choice of the Controller, deletes or returns all personal data at the ' +
      'end of the services and deletes existing copies, unless Union or Member State law requires storage ' +
      '(section 9).',
    '- **(h) Information and audits.** makes available to the Controller all information necessary to ' +
      'demonstrate compliance with Article 28 GDPR and allows for and contributes to audits, including ' +
      'inspections, by the Controller or an auditor it mandates (section 10).',
    '',
    'The Processor also keeps a record of the processing it carries out on behalf of the Controller (Article ' +
      '30(2) GDPR), cooperates with the supervisory authority on request (Article 31 GDPR) and, where Article 37 ' +
      'GDPR requires it, designates a data protection officer and gives the Controller their contact details.',
    '',
    '## 5. Sub-processors (Article 28(2) and 28(4) GDPR)',
    '',
    'The Controller gives the Processor general written authorisation to engage the sub-processors listed in ' +
      'Annex III. The Processor informs the Controller in writing of any intended addition or replacement of a ' +
      'sub-processor at least 30 days in advance, giving the Controller the opportunity to object on reasonable ' +
      'data protection grounds. If the Controller objects, the Processor does not engage that sub-processor for ' +
      'the Controller, or the Controller may terminate the affected services.',
    '',
    'The Processor imposes on each sub-processor, by a written contract, the same data protection obligations as ' +
      'those of this Agreement, in particular sufficient guarantees to implement appropriate technical and ' +
      'organisational measures. Where a sub-processor fails to fulfil its obligations, the Processor remains ' +
      'fully liable to the Controller for the performance of that sub-processor.',
    '',
    '## 6. Security of processing (Article 32 GDPR)',
    '',
    'Taking into account the state of the art, the costs of implementation and the nature, scope, context and ' +
      'purposes of the processing, as well as the risks to the rights and freedoms of natural persons, the ' +
      'Processor implements and maintains the technical and organisational measures of Annex II. It reviews them ' +
      'regularly and may replace a measure only by one giving at least the same level of protection.',
    '',
    '## 7. Personal data breach notification (Article 33 GDPR)',
    '',
    'The Processor notifies the Controller without undue delay, and in any case within 48 hours, after becoming ' +
      'aware of a personal data breach affecting the personal data. The notification describes, as far as then ' +
      'known, the nature of the breach, the categories and approximate numbers of data subjects and records ' +
      'concerned, the likely consequences, the measures taken or proposed, and a contact point. Information not ' +
      'yet available is provided in phases without further undue delay. The Processor helps the Controller to ' +
      'notify the supervisory authority (Article 33 GDPR) and to communicate the breach to data subjects ' +
      '(Article 34 GDPR), and takes steps to contain the breach and limit its effects.',
    '',
    '## 8. Assistance to the Controller',
    '',
    'The Processor forwards to the Controller without delay any request it receives from a data subject and does ' +
      'not answer it itself unless authorised. It assists the Controller with requests for access, ' +
      'rectification, erasure, restriction, portability and objection, and with rights related to automated ' +
      'decision-making. It also assists the Controller with the security of processing (Article 32 GDPR), breach ' +
      'notification and communication (Articles 33 and 34 GDPR), data protection impact assessments (Article 35 ' +
      'GDPR) and prior consultation of the supervisory authority (Article 36 GDPR).',
    '',
    '## 9. Deletion or return of personal data',
    '',
    `At the end of the services, the Processor, at the Controller's choice, returns all personal data to the ` +
      `Controller in a common machine-readable format or deletes it, and deletes all existing copies within ${days} ` +
      'days, unless Union or Member State law requires storage of the personal data. On request, the Processor ' +
      'confirms the deletion in writing.',
    '',
    '## 10. Audits and inspections',
    '',
    'The Processor makes available to the Controller all information necessary to demonstrate compliance with ' +
      'this Agreement, such as certifications and independent audit reports. The Controller, or an independent ' +
      'auditor mandated by it and bound by confidentiality, may audit the Processor, including by on-site ' +
      'inspection, on at least 30 days written notice, during business hours and without unreasonably disturbing ' +
      'the Processor’s operations. A supervisory authority may audit at any time as the law allows.',
    '',
    '## 11. International transfers (Chapter V GDPR)',
    '',
    'Personal data is transferred to a third country or an international organisation only on documented ' +
      'instructions of the Controller and only under the following mechanism(s):',
    '',
    ...request.transfer_mechanisms.map(mechanismClause),
    '',
    'Before any transfer, the Processor assesses, together with the Controller, whether the law and practice of ' +
      'the destination country allow the data importer to comply with its obligations, and adopts supplementary ' +
      'measures where needed.',
    '',
    '## 12. Retention',
    '',
    `The Processor keeps personal data only as long as needed for the purposes of section 2 and in any case no ` +
      `longer than ${days} days after it was received, unless the Controller instructs a different period in ` +
      'writing or Union or Member State law requires a longer storage. Personal data whose retention period has ' +
      'ended is deleted, including from backups in their normal rotation.',
    '',
    '## 13. Term and precedence',
    '',
    'This Agreement applies for as long as the Processor processes personal data on behalf of the Controller. If ' +
      'it conflicts with the principal agreement on the protection of personal data, this Agreement prevails.',
    '',
    '## 14. Governing law and jurisdiction',
    '',
    `This Agreement is governed by ${md(law.law)}. Disputes arising from it are subject to the exclusive ` +
      `jurisdiction of ${md(law.courts)}.` +
      (sccNamed
        ? ' For the standard contractual clauses, Clauses 17 and 18 of those clauses are completed with the law and ' +
          'courts named here where they are those of an EU Member State, and otherwise with those of the Member ' +
          'State in which the Controller is established.'
        : ''),
    '',
    '## Signatures',
    '',
    '| | For the Controller | For the Processor |',
    '| --- | --- | --- |',
    `| Organisation | ${md(controller.name)} | ${md(processor.name)} |`,
    '| Name and title | | |',
    '| Signature | | |',
    '| Date and place | | |',
    '',
    '## Annex I: Parties and description of the processing',
    '',
    '### Controller',
    '',
    '| Field | Value |',
    '| --- | --- |',
    ...partyRows(controller),
    '| Role | Controller |',
    '',
    '### Processor',
    '',
    '| Field | Value |',
    '| --- | --- |',
    ...partyRows(processor),
    '| Role | Processor |',
    '',
    '### Description of the processing',
    '',
    `- **Categories of data subjects:** ${request.subject_categories.map(md).join('; ')}`,
    `- **Types of personal data:** ${dataTypes.map(md).join('; ')}`,
    '- **Nature of the processing:** as described in section 2',
    `- **Purpose:** ${purpose}`,
    `- **Retention:** at most ${days} days (section 12)`,
    `- **Transfer mechanisms:** ${request.transfer_mechanisms.map((id) => transferMechanisms[id].displayName).join('; ')}`,
    '',
    '## Annex II: Technical and organisational measures',
    '',
    '- **Access control:** access on a need-to-know basis with individual accounts, multi-factor authentication ' +
      'for administrative access, and prompt removal of access when no longer needed.',
    '- **Encryption:** personal data is encrypted in transit (TLS 1.2 or later) and at rest with current ' +
      'algorithms; keys are managed separately from the data.',
    '- **Pseudonymisation and minimisation:** personal data is pseudonymised or minimised where the purpose ' + 'allows it.',
    '- **Confidentiality and integrity:** logging of access to personal data, tamper-evident audit records and ' +
      'separation of the Controller’s data from that of other customers.',
    '- **Availability and resilience:** regular backups, tested restoration, and redundancy for systems that ' + 'process personal data.',
    '- **Incident response:** a documented process to detect, assess, contain and report personal data breaches.',
    '- **Testing and evaluation:** regular vulnerability scanning, penetration tests and review of the ' +
      'effectiveness of these measures.',
    '- **Personnel:** confidentiality undertakings and data protection training for all staff with access.',
    '- **Physical security:** data centres with controlled access, surveillance and environmental protection.',
    '',
    '## Annex III: Sub-processors',
    '',
    ...subProcessorTable(request),
    '',
  ].join('\n');
};
