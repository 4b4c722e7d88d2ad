/** MEDICAL_LICENSE (US DEA number): registrant letter + letter (or 9) + 7 digits → 0.4; DEA check digit → 1.0. */
import { definePatternRecognizer } from '../../pattern.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

/** DEA: (d1+d3+d5) + 2·(d2+d4+d6) ≡ d7 (mod 10) over the 7 trailing digits. */
export const deaValid = (text: string): boolean => {
  const d = text.slice(-7);
  if (!/^\d{7}$/.test(d)) return false;
  const n = (i: number) => d.charCodeAt(i) - 48;
  return (n(0) + n(2) + n(4) + 2 * (n(1) + n(3) + n(5))) % 10 === n(6);
};

export const medicalLicenseRecognizer = definePatternRecognizer({
  name: 'MedicalLicenseRecognizer',
  entity: 'MEDICAL_LICENSE',
  languages: GENERIC_LANGUAGES,
  context: ['medical', 'certificate', 'dea'],
  patterns: [
    { name: 'USA DEA Certificate Number (weak)', regex: /\b[abcdefghjklmprstux][a-z]\d{7}\b/i, score: 0.4 },
    { name: 'USA DEA Certificate Number (weak, 9)', regex: /\b[abcdefghjklmprstux]9\d{7}\b/i, score: 0.4 },
  ],
  validate: deaValid,
});
