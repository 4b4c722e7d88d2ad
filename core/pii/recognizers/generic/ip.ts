/**
 * IP_ADDRESS: IPv4 (optional /0–32), IPv6 full/compressed with optional embedded IPv4, %zone, /0–128 → 0.6;
 * bare `::` → 0.1. Invalidated when node:net `isIP` rejects the address or the prefix is out of range
 * (Presidio: ipaddress.ip_interface).
 */
import { isIP } from 'node:net';
import { definePatternRecognizer } from '../../pattern.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;

/** True when the text is not a valid address/interface. */
export const invalidIp = (text: string): boolean => {
  const [address = '', prefix] = text.split('/');
  const bare = address.split('%')[0] ?? '';
  const version = isIP(bare);
  if (version === 0) return true;
  if (prefix === undefined) return false;
  const bits = Number(prefix);
  return !/^\d{1,3}$/.test(prefix) || bits > (version === 4 ? 32 : 128);
};

export const ipRecognizer = definePatternRecognizer({
  name: 'IpRecognizer',
  entity: 'IP_ADDRESS',
  languages: GENERIC_LANGUAGES,
  context: ['ip', 'ipv4', 'ipv6'],
  patterns: [
    { name: 'IPv4', regex: new RegExp(`(?<![\\d.])${IPV4}(?:/\\d{1,2})?(?![\\d]|\\.\\d)`), score: 0.6 },
    {
      name: 'IPv6',
      regex: new RegExp(
        `(?<![\\w:.%])(?=[0-9a-f:.]{0,45}[0-9a-f])[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?:(?<=:)${IPV4})?(?:%[0-9a-z]{1,16})?(?:/\\d{1,3})?(?![\\w:])`,
        'i',
      ),
      score: 0.6,
    },
    { name: 'IPv6 unspecified (::)', regex: /(?<![\w:])::(?![\w:])/, score: 0.1 },
  ],
  invalidate: invalidIp,
});
