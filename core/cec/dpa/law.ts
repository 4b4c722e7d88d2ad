/**
 * `law_of_contract` is free text ("Irish law", "the laws of the State of New York") or an ISO 3166-1 alpha-2
 * country code ("DE"), which is expanded to the country's English name so the clause reads naturally.
 */
export type GoverningLaw = {
  /** e.g. "the law of Germany" or the free text as given. */
  readonly law: string;
  /** e.g. "the courts of Germany" or a formula pointing at the free-text law. */
  readonly courts: string;
  readonly countryCode?: string;
};

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

// Country names that read with an article in running text ("the law of the Netherlands").
const takesArticle = /^(United |Netherlands|Philippines|Bahamas|Czech|Dominican|Central African|Maldives|Seychelles|European)/;

const countryName = (value: string): string | undefined => {
  if (!/^[A-Za-z]{2}$/.test(value)) return undefined;
  try {
    const name = regionNames.of(value.toUpperCase());
    return name === undefined ? undefined : takesArticle.test(name) ? `the ${name}` : name;
  } catch {
    return undefined;
  }
};

/** Interprets `law_of_contract`; deterministic for a given value. */
export const resolveGoverningLaw = (value: string): GoverningLaw => {
  const country = countryName(value);
  if (country !== undefined) {
    return { law: `the law of ${country}`, courts: `the courts of ${country}`, countryCode: value.toUpperCase() };
  }
  return { law: value, courts: 'the courts having jurisdiction under that law' };
};
