/**
 * Strict xsd:dateTime reader for SAML instants. SAML 2.0 core 1.3.3 says instants SHOULD be UTC with no offset,
 * but real IdPs send `+00:00` or a local offset, and Entra sends seven fractional digits; other SPs accept
 * them. A time with no zone is ambiguous and stays refused. Date.parse alone is far too loose (it rolls
 * 2024-02-30 over into March), so every field is range-checked here.
 */
const shape = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/;

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Milliseconds since the epoch (UTC) for an xsd:dateTime with an explicit zone, or undefined when invalid. */
export const parseXsdDateTime = (raw: string): number | undefined => {
  const match = shape.exec(raw);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = match[7] ?? '';
  const endOfDay = hour === 24 && minute === 0 && second === 0 && /^0*$/.test(fraction);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (match[8] !== 'Z') {
    const offsetHours = Number(match[10]);
    const offsetMins = Number(match[11]);
    if (offsetHours > 14 || offsetMins > 59 || (offsetHours === 14 && offsetMins !== 0)) return undefined;
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  // Milliseconds precision is all the clock comparison needs; extra digits are truncated, not rounded.
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
};
