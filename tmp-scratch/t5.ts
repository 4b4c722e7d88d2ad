import { findNamedEntities } from '../core/pii/ner/compromise-ner.ts';
for (const t of ['Dr. Jane A. Smith met Mr John Smith yesterday.', 'The book by J. R. R. Tolkien is long.', 'Please call Mrs. Mary-Ann O\'Neil today.', 'Prof. Alan M. Turing and Ms Grace Hopper spoke.', 'Sir Patrick Stewart, Jane Doe and George W. Bush attended.', 'I met John F. Kennedy Jr. in Boston.'])
  console.log(t, JSON.stringify(findNamedEntities(t).map(s=>[s.type,t.slice(s.start,s.end)])));
for (const t of ['Dr. Who is a show.', 'Mr John Smith And friends', 'Appendix A. The end.', 'Section B. Smith wrote it.', 'I saw J.K. Rowling.', 'Mr. Smith called.'])
  console.log(t, JSON.stringify(findNamedEntities(t).map(s=>[s.type,t.slice(s.start,s.end)])));
