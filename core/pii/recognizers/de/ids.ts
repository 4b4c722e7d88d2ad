/** German personal and tax identifiers (all `de`, opt-in like Presidio's disabled German recognizers). */
import { definePatternRecognizer } from '../../pattern.ts';
import { deHealthInsuranceValid, deSocialSecurityValid, deTaxIdValid, deVatValidate, icao731Valid } from './checks.ts';

const DE = ['de'];
/** Serial (8 or 9 ICAO characters, the German sample is C01X00T47) followed by its 7-3-1 check digit. */
const NPA = /\b[cfghjklmnprtvwxyz][cfghjklmnprtvwxyz0-9]{7,8}\d\b/i;

export const deIdRecognizers = [
  definePatternRecognizer({
    name: 'DeTaxIdRecognizer',
    entity: 'DE_TAX_ID',
    languages: DE,
    enabledByDefault: false,
    context: ['steueridentifikationsnummer', 'steuer-id', 'steuerid', 'steuerliche identifikationsnummer', 'steuerliche identifikation', 'persönliche identifikationsnummer', 'steuer identifikation', 'idnr', 'steuer-idnr', 'steuernummer', 'bzst'],
    patterns: [{ name: 'Steuer-IdNr', regex: /\b[1-9]\d{10}\b/, score: 0.5 }],
    validate: deTaxIdValid,
  }),
  definePatternRecognizer({
    name: 'DeTaxNumberRecognizer',
    entity: 'DE_TAX_NUMBER',
    languages: DE,
    enabledByDefault: false,
    context: ['steuernummer', 'steuer-nr', 'steuer nr', 'st.-nr', 'st-nr', 'finanzamt', 'umsatzsteuer', 'einkommensteuer', 'körperschaftsteuer', 'gewerbesteuer', 'steuerveranlagung', 'steuerbescheid'],
    patterns: [
      { name: 'ELSTER 13-digit', regex: /\b(?:0[1-9]|1[0-6])\d{11}\b/, score: 0.5 },
      { name: 'ddd/ddd/ddddd', regex: /\b\d{3}\/\d{3}\/\d{5}\b/, score: 0.4 },
      { name: 'generic slash form', regex: /\b\d{2,3}\/\d{3,4}\/\d{4,5}\b/, score: 0.2 },
    ],
  }),
  definePatternRecognizer({
    name: 'DeVatIdRecognizer',
    entity: 'DE_VAT_ID',
    languages: DE,
    enabledByDefault: false,
    context: ['umsatzsteuer-identifikationsnummer', 'umsatzsteueridentifikationsnummer', 'ust-idnr', 'ust-id', 'ustidnr', 'umsatzsteuer-id', 'mehrwertsteuer', 'vat', 'vat-id', 'vat id', 'steueridentifikation', 'bzst', 'bundeszentralamt für steuern', 'finanzamt', 'invoice', 'rechnung'],
    patterns: [
      { name: 'USt-IdNr', regex: /\bde\d{9}\b/i, score: 0.5 },
      { name: 'USt-IdNr (separated)', regex: /\bde[ .-]?\d{3}[ .-]?\d{3}[ .-]?\d{3}\b/i, score: 0.4 },
    ],
    validate: deVatValidate,
  }),
  definePatternRecognizer({
    name: 'DePassportRecognizer',
    entity: 'DE_PASSPORT',
    languages: DE,
    enabledByDefault: false,
    context: ['reisepass', 'pass', 'passnummer', 'reisepassnummer', 'passport', 'passport number', 'pass-nr', 'dokumentennummer', 'bundesrepublik deutschland', 'ausweisdokument', 'mrz'],
    patterns: [{ name: 'Reisepass', regex: NPA, score: 0.4 }],
    validate: icao731Valid,
  }),
  definePatternRecognizer({
    name: 'DeIdCardRecognizer',
    entity: 'DE_ID_CARD',
    languages: DE,
    enabledByDefault: false,
    context: ['personalausweis', 'ausweis', 'personalausweisnummer', 'ausweisnummer', 'ausweisdokument', 'dokumentennummer', 'seriennummer', 'npa', 'neuer personalausweis', 'personalausweisgesetz', 'pauwsg', 'bundespersonalausweis', 'identity card', 'national id'],
    patterns: [
      { name: 'nPA', regex: NPA, score: 0.4 },
      { name: 'old ID card (T + 8 digits)', regex: /\bt\d{8}\b/i, score: 0.5 },
    ],
    validate: (text) => (/^t\d{8}$/i.test(text) ? null : icao731Valid(text)),
  }),
  definePatternRecognizer({
    name: 'DeSocialSecurityRecognizer',
    entity: 'DE_SOCIAL_SECURITY',
    languages: DE,
    enabledByDefault: false,
    context: ['rentenversicherungsnummer', 'sozialversicherungsnummer', 'versicherungsnummer', 'rvnr', 'svnr', 'sv-nummer', 'rente', 'rentenversicherung', 'deutsche rentenversicherung', 'drv', 'sozialversicherung', 'sozialversicherungsausweis', 'rentenausweis'],
    patterns: [
      {
        name: 'RVNR',
        regex: /\b\d{2}(?:0[1-9]|[12]\d|3[01]|5[1-9]|[67]\d|8[01])(?:0[1-9]|1[0-2])\d{2}[a-z]\d{3}\b/i,
        score: 0.5,
      },
      { name: 'RVNR (relaxed)', regex: /\b\d{8}[a-z]\d{3}\b/i, score: 0.3 },
    ],
    validate: deSocialSecurityValid,
  }),
  definePatternRecognizer({
    name: 'DeHealthInsuranceRecognizer',
    entity: 'DE_HEALTH_INSURANCE',
    languages: DE,
    enabledByDefault: false,
    context: ['krankenversicherungsnummer', 'krankenversichertennummer', 'versichertennummer', 'kvnr', 'krankenkasse', 'krankenversicherung', 'gesundheitskarte', 'egk', 'elektronische gesundheitskarte', 'gkv', 'gesetzliche krankenversicherung', 'krankenversicherungsausweis', 'versichertenausweis', 'versichertenkarte', 'aok', 'tkk', 'barmer', 'dak'],
    patterns: [{ name: 'KVNR', regex: /\b[a-z]\d{9}\b/i, score: 0.3 }],
    validate: deHealthInsuranceValid,
  }),
];
