/**
 * Labelled English sentences for measuring the NER recognizer. Gold spans are written inline as
 * `[text|P]` (PERSON), `[text|L]` (LOCATION) and `[text|N]` (NRP). Positive sentences come from templates
 * filled with names, places and groups below; negative sentences hold no PERSON, LOCATION or NRP, but plenty of
 * capitalised words (products, months, acronyms, sentence starts) that tempt a tagger.
 * Nothing here feeds the recognizer: it uses compromise's own lexicon and general group words only.
 */
export type GoldSpan = { readonly type: 'PERSON' | 'LOCATION' | 'NRP'; readonly start: number; readonly end: number };
export type LabelledSentence = { readonly text: string; readonly gold: readonly GoldSpan[] };

const people = [
  'Maria Gonzalez',
  'John Smith',
  'Olusegun Adeyemi',
  'Priya Raman',
  'Wei Zhang',
  'Sarah Connor',
  'Ahmed Khan',
  'Emily Watson',
  'Hiroshi Tanaka',
  'Fatima Zahra',
  'Michael Brown',
  'Anna Kowalski',
  'David Miller',
  'Lucia Rossi',
  'James Wilson',
  'Ngozi Okafor',
  'Robert Johnson',
  'Elena Petrova',
  'Thomas Müller',
  'Aisha Bello',
  'Jennifer Lee',
  'Carlos Mendoza',
  'Linda Taylor',
  'Sven Andersson',
  'Karen Thompson',
  'Rahul Mehta',
  'Patricia Moore',
  'Kwame Mensah',
  'Daniel Harris',
  'Sofia Hernandez',
  'Mark Davis',
  'Yuki Sato',
  'Rachel Green',
  'Omar Haddad',
  'Susan Clark',
  'Ivan Horvat',
  'Laura Martin',
  'Tariq Aziz',
  'Kevin White',
  'Chloe Dubois',
  'George Walker',
  'Ingrid Larsen',
  'Paul Robinson',
  'Mei Lin',
  'Brian Hall',
  'Zainab Yusuf',
  'Steven Young',
  'Marta Nowak',
  'Edward King',
  'Aditi Sharma',
  'Jessica Wright',
  'Dmitri Volkov',
  'Nancy Scott',
  'Joao Silva',
  'Helen Adams',
  'Kenji Watanabe',
  'Margaret Baker',
  'Amara Nwosu',
  'Peter Nelson',
  'Isabella Conti',
];
const places = [
  'Madrid',
  'Boston',
  'Lagos',
  'Chicago',
  'Berlin',
  'Tokyo',
  'Nairobi',
  'Toronto',
  'Mumbai',
  'Paris',
  'London',
  'Sydney',
  'Cairo',
  'Lisbon',
  'Seattle',
  'Dublin',
  'Vienna',
  'Denver',
  'Shanghai',
  'Oslo',
  'Texas',
  'California',
  'Germany',
  'France',
  'Brazil',
  'Kenya',
  'Japan',
  'Canada',
  'Italy',
  'Mexico',
  'Nigeria',
  'India',
  'Australia',
  'Sweden',
  'Poland',
  'Egypt',
  'Spain',
  'Ireland',
  'Norway',
  'Chile',
  'Houston',
  'Atlanta',
  'Manchester',
  'Stockholm',
  'Warsaw',
  'Kyoto',
  'Accra',
  'Lima',
  'Prague',
  'Athens',
];
const groups = [
  'German',
  'Catholic',
  'French',
  'Muslim',
  'Republican',
  'Japanese',
  'Buddhist',
  'Democrat',
  'Italian',
  'Hindu',
  'Brazilian',
  'Jewish',
  'Canadian',
  'Protestant',
  'Nigerian',
  'Sikh',
  'Spanish',
  'Socialist',
  'Chinese',
  'Irish',
];

const personTemplates = [
  '[P] signed the contract on Tuesday.',
  'Please forward the file to [P] before noon.',
  'The account belongs to [P].',
  'Yesterday [P] called the help desk twice.',
  'According to the report, [P] approved the payment.',
  'We interviewed [P] for the analyst role.',
  'Send the invoice to [P], our new controller.',
  'The patient, [P], was discharged in good health.',
  'I had lunch with [P] and we discussed the budget.',
  'Our thanks go to [P] for the review.',
  'The complaint was filed by [P] last week.',
  'Ask [P] whether the backup finished.',
];
const placeTemplates = [
  'The shipment left [L] on Monday.',
  'Our new office in [L] opens next spring.',
  'She grew up near [L] and studied engineering.',
  'Flights to [L] were cancelled because of the storm.',
  'The conference will take place in [L] this year.',
  'He moved to [L] after graduating.',
  'Prices in [L] rose sharply last quarter.',
  'The warehouse outside [L] handles returns.',
];
const mixedTemplates = [
  '[P] flew from [L] to [L2] for the audit.',
  '[P] lives in [L] with two cats.',
  'The customer [P] reported the fraud from [L].',
  'Last summer [P] opened a bakery in [L].',
  'A [N] delegation met [P] in [L].',
  '[P] described herself as a devout [N].',
  'The [N] engineer [P] relocated to [L].',
  'Records show that [P] was born in [L].',
];
const groupTemplates = [
  'The survey asked whether respondents were [N].',
  'Several [N] families attended the meeting.',
  'He joined the [N] choir at the age of ten.',
  'The form records that the applicant is [N].',
];

/** Fills a template; each slot takes the next filler of its list, so every filler gets used in turn. */
const fill = (template: string, used: { p: number; l: number; n: number }): string =>
  template
    .replace('[P]', () => `[${people[used.p++ % people.length]}|P]`)
    .replace('[L2]', () => `[${places[used.l++ % places.length]}|L]`)
    .replace('[L]', () => `[${places[used.l++ % places.length]}|L]`)
    .replace('[N]', () => `[${groups[used.n++ % groups.length]}|N]`);

const handwrittenPositive = [
  'Dr. [Olusegun Adeyemi|P] will see you at the clinic in [Ibadan|L].',
  'Mr. [Jonathan Pryce|P] asked for a refund.',
  '[Angela Merkel|P] visited [Washington|L] in 2015.',
  'The [Swiss|N] bank froze the account of [Lars Eriksen|P].',
  'Mail it to [Mary Jane Watson|P] in [Queens|L].',
  'Ms. [Chen Jing|P] flew to [Singapore|L] via [Hong Kong|L].',
  '[Barack Obama|P] spoke in [Berlin|L].',
  '[Pedro Almeida|P] and [Ana Costa|P] run a shop in [Porto|L].',
  'Contact [Heinz Becker|P] at the [Munich|L] branch.',
  'The [Korean|N] student [Kim Min-jun|P] won the prize.',
  '[Tom Hanks|P] was filming in [Rome|L].',
  'The rally in [Ohio|L] drew thousands of [Democrats|N].',
  '[Greta Lindqvist|P] posted from [Gothenburg|L].',
  'We hired [Jean-Luc Picard|P] as a consultant.',
  'The [Muslim|N] community of [Leeds|L] raised funds.',
  'Grandma [Rose Fitzgerald|P] still lives in [Cork|L].',
  '[Vladimir Petrov|P] emigrated from [Russia|L].',
  'Our agent in [Johannesburg|L] is [Thabo Nkosi|P].',
  'Is [Elizabeth|P] coming to [Edinburgh|L]?',
  'The [Hindu|N] temple in [Leicester|L] hosted the festival.',
];

const negativeSentences = [
  'The meeting is scheduled for Monday at 10 am.',
  'Please restart the server after the update.',
  'Quarterly revenue grew by 12 percent.',
  'The API returns a JSON object with three fields.',
  'Remember to back up your files every Friday.',
  'Our new product launches in March.',
  'The invoice total includes VAT and shipping.',
  'Click Save to keep your changes.',
  'The committee approved the budget unanimously.',
  'Battery life improved after the firmware patch.',
  'Use the Settings menu to change the language.',
  'The report is due at the end of the month.',
  'Customers can return items within 30 days.',
  'The database migration finished without errors.',
  'Turn left at the second traffic light.',
  'The recipe needs two cups of flour and an egg.',
  'Employees must complete the training by December.',
  'The printer on the third floor is out of toner.',
  'Our support team answers tickets within one business day.',
  'The contract renews automatically each year.',
  'Weekly standups start at nine sharp.',
  'The SQL query took four seconds to run.',
  'Please update the README before merging.',
  'The board reviewed the audit findings on Thursday.',
  'Shipping is free for orders above fifty dollars.',
  'Kubernetes restarted the pod after the crash.',
  'The PDF export now supports landscape pages.',
  'Sales dipped slightly in the second quarter.',
  'The firewall blocked the suspicious request.',
  'Coffee is available in the kitchen all day.',
  'Version 2.1 fixes the login timeout.',
  'All passwords must be at least twelve characters long.',
  'The weather was cold and windy this morning.',
  'The spreadsheet has a tab for each department.',
  'Two engineers are on call this weekend.',
  'The warranty covers parts and labour for two years.',
  'Read the terms before you accept the offer.',
  'The library closes early on public holidays.',
  'Press Enter to confirm the selection.',
  'The model scored well on the benchmark.',
  'Our office will be closed over the holidays.',
  'Refunds are processed within five working days.',
  'The dashboard shows usage by hour.',
  'The bug only appears in dark mode.',
  'A new policy on remote work takes effect in June.',
  'The vendor sent a revised quote.',
  'The cache expires after ten minutes.',
  'Make sure the cable is plugged in.',
  'The training data was cleaned last week.',
  'Lunch will be served in the main hall.',
  'The team celebrated the release with cake.',
  'Check the logs for error code 42.',
  'The elevator is under maintenance until Wednesday.',
  'Monthly active users passed one million.',
  'Staff should wear badges at all times.',
  'The plan includes unlimited storage.',
  'Always lock your screen when you leave your desk.',
  'The script parses each line of the CSV file.',
  'Submit expense reports through the portal.',
  'The survey closes on the last day of April.',
];
const negativeTemplates = [
  'The {x} was updated on {d}.',
  'Please review the {x} before {d}.',
  'Our {x} needs approval by {d}.',
  'Nobody reported problems with the {x} since {d}.',
  'The {x} failed the check on {d}.',
  'Archive the old {x} after {d}.',
];
const things = [
  'quarterly report',
  'backup schedule',
  'Docker image',
  'pricing page',
  'onboarding checklist',
  'VPN config',
  'release notes',
  'HR policy',
  'load balancer',
  'Excel template',
  'travel budget',
  'CI pipeline',
  'privacy notice',
  'TLS certificate',
  'style guide',
  'incident ticket',
  'sales forecast',
  'API gateway',
  'coffee machine',
  'marketing plan',
  'Slack channel',
  'SLA document',
  'test suite',
  'parking permit',
];
const days = ['Monday', 'Friday', 'the deadline', 'next week', 'January', 'the weekend', 'Tuesday morning', 'Q3'];

/** Parses `[text|P]` markup into text and gold spans (code points). */
export const parse = (marked: string): LabelledSentence => {
  const gold: GoldSpan[] = [];
  let text = '';
  const pattern = /\[([^|\]]+)\|([PLN])\]/g;
  let last = 0;
  const codePoints = (s: string): number => [...s].length;
  for (const match of marked.matchAll(pattern)) {
    text += marked.slice(last, match.index);
    const surface = match[1] ?? '';
    const type = match[2] === 'P' ? 'PERSON' : match[2] === 'L' ? 'LOCATION' : 'NRP';
    const start = codePoints(text);
    text += surface;
    gold.push({ type, start, end: start + codePoints(surface) });
    last = match.index + match[0].length;
  }
  text += marked.slice(last);
  return { text, gold };
};

const positiveMarked = (): string[] => {
  const out: string[] = [...handwrittenPositive];
  const families = [personTemplates, placeTemplates, mixedTemplates, groupTemplates];
  const used = { p: 0, l: 0, n: 0 };
  for (let i = 0; out.length < 230; i++) {
    const family = families[i % families.length] ?? personTemplates;
    out.push(fill(family[Math.floor(i / families.length) % family.length] ?? '', used));
  }
  return out;
};

const negativeTexts = (): string[] => {
  const out = [...negativeSentences];
  for (let i = 0; out.length < 230; i++) {
    const template = negativeTemplates[i % negativeTemplates.length] ?? '';
    out.push(template.replace('{x}', things[i % things.length] ?? '').replace('{d}', days[(i * 5) % days.length] ?? ''));
  }
  return out;
};

/** Sentences that contain at least one PERSON, LOCATION or NRP, with their gold spans (code point offsets). */
export const positiveSentences: readonly LabelledSentence[] = positiveMarked().map(parse);
/** Sentences with none of the three entity types. */
export const negativeSentencesLabelled: readonly LabelledSentence[] = negativeTexts().map((text) => ({ text, gold: [] }));

/**
 * Held-out sentences written after the recognizer's heuristics were fixed and never used to tune them; the
 * test reports their scores separately so over-fitting to the main set shows.
 */
export const heldOutSentences: readonly LabelledSentence[] = [
  'My neighbour [Gregory Paulsen|P] drove to [Bristol|L] on Saturday.',
  'The letter from [Aunt Mildred|P] arrived late.',
  '[Ravi Shankar|P] performed in [Delhi|L] last night.',
  'A [Polish|N] nurse, [Agnieszka Wrona|P], treated him in [Krakow|L].',
  'The [Baptist|N] church on the hill was rebuilt.',
  'Call [Francesca|P] when you land in [Milan|L].',
  'Officers found [Derek Mills|P] near [Glasgow|L].',
  'The [Vietnamese|N] restaurant in [Melbourne|L] was full.',
  'I forwarded the memo to [Harriet Cole|P].',
  '[Kofi Boateng|P] transferred the funds from [Ghana|L].',
  'The [Republicans|N] blocked the bill in [Arizona|L].',
  'Her father, [Ignacio Ruiz|P], was born in [Seville|L].',
  'Ship the parcel to [Winnipeg|L] by Friday.',
  '[Beatrice Okoye|P] chairs the board.',
  'The [Orthodox|N] priest blessed the building in [Thessaloniki|L].',
  'Passengers from [Bangkok|L] waited for hours.',
  '[Marcus Lindgren|P] and [Petra Holm|P] co-wrote the paper.',
  'The [Dutch|N] team arrived in [Rotterdam|L] early.',
  'We met [Nadia Farouk|P] at the airport.',
  'The storm hit [Florida|L] and [Georgia|L].',
  'Prof. [Alan Turing|P] lectured in [Cambridge|L].',
  'A [Turkish|N] journalist interviewed [Selin Arslan|P].',
  'The farm near [Quebec|L] sells maple syrup.',
  '[Yusuf Demir|P] signed for the club in [Istanbul|L].',
  'The [Lutheran|N] school admitted forty pupils.',
  'Please call [Owen Price|P] about the lease.',
  'Most [Mormons|N] in [Utah|L] voted early.',
  '[Camila Torres|P] teaches in [Bogota|L].',
  'Our courier lost the box in [Rotterdam|L].',
  'The [Ethiopian|N] runner [Haile Gebre|P] won in [Berlin|L].',
]
  .map(parse)
  .concat(
    [
      'The backup job failed twice overnight.',
      'Add two tablespoons of olive oil.',
      'The Wi-Fi password changed today.',
      'Sprint planning moved to Thursday afternoon.',
      'The invoice template needs a new logo.',
      'Our NPS score improved this quarter.',
      'Restart the router if the light blinks red.',
      'The audit trail records every change.',
      'Gross margin fell by two points.',
      'The onboarding video lasts ten minutes.',
      'Please sign the NDA before the demo.',
      'The Android app crashes on launch.',
      'Interest rates stayed flat in May.',
      'The Python script converts XML to JSON.',
      'Tickets go on sale at midnight.',
      'The parking garage is full again.',
      'Delete temporary files older than a week.',
      'The GDPR request was answered in time.',
      'Our Zoom call starts in five minutes.',
      'The roof needs repairs before winter.',
      'Each laptop ships with a charger.',
      'The survey response rate was low.',
      'Dinner is at seven.',
      'Encryption keys rotate every ninety days.',
      'The new chairs are more comfortable.',
      'The Linux kernel was patched yesterday.',
      'Visitors must sign in at reception.',
      'The fridge is making a noise.',
      'Our quarterly OKRs are on the wiki.',
      'The PowerPoint deck has forty slides.',
    ].map((text) => ({ text, gold: [] })),
  );
