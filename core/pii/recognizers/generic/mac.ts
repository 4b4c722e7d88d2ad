/** MAC_ADDRESS: six hex pairs with one consistent `:`/`-` separator, or Cisco `xxxx.xxxx.xxxx` → 0.6. */
import { definePatternRecognizer } from '../../pattern.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

/** True for anything that is not 12 hex digits, or is the broadcast/all-zero address. */
export const invalidMac = (text: string): boolean => {
  const hex = text.replace(/[:.-]/g, '').toLowerCase();
  return !/^[0-9a-f]{12}$/.test(hex) || hex === 'ffffffffffff' || hex === '000000000000';
};

export const macRecognizer = definePatternRecognizer({
  name: 'MacAddressRecognizer',
  entity: 'MAC_ADDRESS',
  languages: GENERIC_LANGUAGES,
  context: ['mac', 'mac address', 'hardware address', 'physical address', 'ethernet'],
  patterns: [
    {
      name: 'MAC colon/hyphen',
      regex: /(?<![0-9a-f:-])[0-9a-f]{2}([:-])[0-9a-f]{2}(?:\1[0-9a-f]{2}){4}(?![0-9a-f]|[:-][0-9a-f])/i,
      score: 0.6,
    },
    {
      name: 'MAC Cisco',
      regex: /(?<![0-9a-f.])[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}(?![0-9a-f]|\.[0-9a-f])/i,
      score: 0.6,
      requires: /\.[0-9a-f]{4}\./i,
    },
  ],
  invalidate: invalidMac,
});
