/**
 * IP_ADDRESS: IPv4 (optional /0–32), IPv6 full/compressed with optional embedded IPv4 (IPv4-mapped
 * `::ffff:192.0.2.1`, IPv4-embedded `64:ff9b::192.0.2.33`), %zone, /0–128 → 0.6; bare `::` → 0.1.
 * A CIDR prefix length is part of the span (`10.0.0.0/24`); an out-of-range one (`/33`) is not a prefix, so the
 * address alone is reported. IPv4 needs token boundaries: nothing inside `1.2.3.4.5`, `v1.2.3.4a`.
 * Invalidated when node:net `isIP` rejects the address (Presidio: ipaddress.ip_interface).
 */
import { isIP } from 'node:net';
import { definePatternRecognizer } from '../../pattern.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const V4_PREFIX = '(?:/(?:3[0-2]|[12]?\\d)(?!\\d))?';
const V6_PREFIX = '(?:/(?:12[0-8]|1[01]\\d|[1-9]?\\d)(?!\\d))?';
/** After an address: no word character and no `.digit` (a longer dotted token); IPv6 also no further `:`. */
const V4_END = '(?!\\w|\\.\\d)';
const V6_END = '(?![\\w:]|\\.\\d)';

/** True when node:net rejects the address (the prefix length, if any, is range-checked by the regex). */
export const invalidIp = (text: string): boolean => isIP(text.split('/')[0]?.split('%')[0] ?? '') === 0;

export const ipRecognizer = definePatternRecognizer({
  name: 'IpRecognizer',
  entity: 'IP_ADDRESS',
  languages: GENERIC_LANGUAGES,
  context: ['ip', 'ipv4', 'ipv6'],
  patterns: [
    { name: 'IPv4', regex: new RegExp(`(?<![\\w.])${IPV4}${V4_PREFIX}${V4_END}`), score: 0.6 },
    {
      name: 'IPv6',
      regex: new RegExp(
        `(?<![\\w:.%])(?=[0-9a-f:.]{0,45}[0-9a-f])[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?:(?<=:)${IPV4})?(?:%[0-9a-z]{1,16})?${V6_PREFIX}${V6_END}`,
        'i',
      ),
      score: 0.6,
      // Two of the groups after the first: a colon, up to four hex digits, a colon.
      requires: /:[0-9a-f]{0,4}:/i,
    },
    { name: 'IPv6 unspecified (::)', regex: /(?<![\w:])::(?![\w:])/, score: 0.1 },
  ],
  invalidate: invalidIp,
});
