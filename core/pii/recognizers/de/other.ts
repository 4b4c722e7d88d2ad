/** German practice, vehicle, register, postal and licence numbers (all `de`, opt-in). */
import { definePatternRecognizer } from '../../pattern.ts';
import { deLanrValid } from './checks.ts';

const DE = ['de'];
const SEP = '(?:- |[ -])';

export const deOtherRecognizers = [
  definePatternRecognizer({
    name: 'DeLanrRecognizer',
    entity: 'DE_LANR',
    languages: DE,
    enabledByDefault: false,
    context: ['arztnummer', 'lanr', 'lebenslange arztnummer', 'arzt-nr', 'arzt nr', 'arzt-nummer', 'vertragsarzt', 'kassenarzt', 'niedergelassener arzt', 'kbv', 'kassenärztliche vereinigung', 'kv-nummer', 'rezept', 'verschreibung', 'behandelnder arzt', 'hausarzt', 'facharzt'],
    patterns: [{ name: 'LANR', regex: /\b\d{9}\b/, score: 0.3 }],
    validate: deLanrValid,
  }),
  definePatternRecognizer({
    name: 'DeBsnrRecognizer',
    entity: 'DE_BSNR',
    languages: DE,
    enabledByDefault: false,
    context: ['betriebsstättennummer', 'betriebsstätten-nummer', 'bsnr', 'betriebsstätte', 'praxisnummer', 'arztpraxis', 'praxis', 'kassenärztliche vereinigung', 'kv-nummer', 'kv nummer', 'praxisadresse', 'praxisstandort', 'nebenbetriebsstätte', 'hauptbetriebsstätte', 'behandlungsort', 'vertragsarztpraxis'],
    patterns: [{ name: 'BSNR', regex: /\b\d{9}\b/, score: 0.2 }],
    invalidate: (text) => !/^\d{9}$/.test(text) || /^0+$/.test(text),
  }),
  definePatternRecognizer({
    name: 'DeKfzRecognizer',
    entity: 'DE_KFZ',
    languages: DE,
    enabledByDefault: false,
    context: ['kennzeichen', 'kfz-kennzeichen', 'kraftfahrzeugkennzeichen', 'nummernschild', 'fahrzeugkennzeichen', 'zulassung', 'kfz', 'fahrzeug', 'auto', 'pkw', 'lkw', 'fahrzeugschein', 'fahrzeugbrief', 'zulassungsbescheinigung', 'amtliches kennzeichen'],
    patterns: [
      {
        name: 'Kfz-Kennzeichen',
        regex: new RegExp(`(?<![\\p{L}\\p{N}])[a-zäöü]{1,3}${SEP}[a-z]{1,2}${SEP}?\\d{1,4}[eh]?(?![\\p{L}\\p{N}])`, 'iu'),
        score: 0.3,
      },
      {
        name: 'Kfz-Kennzeichen (ASCII)',
        regex: new RegExp(`\\b[a-z]{1,3}${SEP}[a-z]{1,2}${SEP}?\\d{1,4}[eh]?\\b`, 'i'),
        score: 0.2,
      },
    ],
  }),
  definePatternRecognizer({
    name: 'DeHandelsregisterRecognizer',
    entity: 'DE_HANDELSREGISTER',
    languages: DE,
    enabledByDefault: false,
    context: ['handelsregister', 'handelsregisternummer', 'amtsgericht', 'registergericht', 'hra', 'hrb', 'hr-nummer', 'registerauszug', 'handelsregistereintrag', 'firma', 'gesellschaft', 'gmbh', 'ag', 'ug', 'kg', 'ohg', 'einzelkaufmann', 'einzelkauffrau', 'handelsregisterblattnummer'],
    patterns: [{ name: 'HRA/HRB', regex: /\bhr[ab]\s{0,3}\d{1,6}\b/i, score: 0.5 }],
  }),
  definePatternRecognizer({
    name: 'DePlzRecognizer',
    entity: 'DE_PLZ',
    languages: DE,
    enabledByDefault: false,
    context: ['plz', 'postleitzahl', 'postanschrift', 'adresse', 'wohnort', 'ort', 'wohnanschrift', 'lieferadresse', 'rechnungsadresse', 'straße', 'strasse', 'hausnummer', 'postfach', 'bundesland', 'gemeinde', 'stadt', 'dorf'],
    patterns: [{ name: 'PLZ', regex: /\b(?!01000\b|99999\b)(?:0[1-9]|[1-9]\d)\d{3}\b/, score: 0.05 }],
  }),
  definePatternRecognizer({
    name: 'DeFuehrerscheinRecognizer',
    entity: 'DE_FUEHRERSCHEIN',
    languages: DE,
    enabledByDefault: false,
    context: ['führerscheinnummer', 'führerschein', 'fahrerlaubnis', 'fahrerlaubnisnummer', 'fahrerlaubnisklasse', 'führerscheininhaber', 'fev', 'kba', 'kraftfahrt-bundesamt', 'driving licence', 'driving license', "driver's license", 'licence number', 'license number', 'dokument nr', 'dokument-nr', 'feld 5'],
    patterns: [{ name: 'EU Führerschein', regex: /\b[a-z]{2}\d{8}[a-z0-9]\b/i, score: 0.35 }],
  }),
];
