/**
 * Names with honorifics and initials (issue 13), gold spans without the honorific (as spaCy's PERSON), plus
 * sentences where a capital letter and a dot are not a name.
 */
import { type LabelledSentence, parse } from './ner-corpus.ts';

export const titledNameSentences: readonly LabelledSentence[] = [
  'Dr. [Jane A. Smith|P] reviewed the file.',
  'Please ask Mr [John Smith|P] to sign.',
  'The first edition by [J. R. R. Tolkien|P] sold out.',
  'Prof. [Alan M. Turing|P] gave the lecture.',
  'Mrs. [Mary-Ann O’Neil|P] called twice.',
  'We thanked Ms [Grace Hopper|P] for the talk.',
  'Former president [George W. Bush|P] visited.',
  'The speech of [John F. Kennedy|P] is archived.',
  'Sir [Patrick Stewart|P] narrated the film.',
  'I lent the book to Dr [Amara Okafor|P] yesterday.',
  'The novel by [J.K. Rowling|P] was translated.',
  'Judge [Ruth B. Ginsburg|P] wrote the dissent.',
  'Capt. [Nigel P. Hargreaves|P] signed the log.',
  'Our lawyer, Ms. [Sofia Lindqvist|P], replied.',
  'The grant went to Dr. [Wei Zhang|P] and Prof. [Lucia Rossi|P].',
  'See appendix A. The table lists costs.',
  'Option B. Then restart the service.',
  'Grade A. Excellent work overall.',
  'Plan B. Nothing else worked.',
  'Flight E. Departures are delayed.',
].map(parse);
