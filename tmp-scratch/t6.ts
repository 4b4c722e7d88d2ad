import nlp from 'compromise/three';
import dates from 'compromise-dates';
nlp.plugin(dates);
const texts = ['We met on the 3rd of March 2024 and again on March 3, 2024.', 'See you the 1st of May, she said.', 'He was born in 1985 in Leeds.', 'Invoice 2024-03-01 due by 5 June.', 'Call me tomorrow or next week at 5pm.', 'Version 2019 of the tool costs 2024 dollars.', 'The meeting is on Tuesday, 14 February 2023 at 10:30.', 'I may do that. March on!', 'Record 1234 updated'];
let t0 = performance.now();
for (const t of texts) {
  const doc = nlp(t) as any;
  const found = doc.dates().json({ offset: true });
  console.log(JSON.stringify(t), JSON.stringify(found.map((d: any) => [d.text, d.offset?.start, d.offset?.length])));
}
console.log('ms', performance.now() - t0);
t0 = performance.now();
const big = texts.join(' ').repeat(20);
(nlp(big) as any).dates().json({offset:true});
console.log('ms for', big.length, performance.now() - t0);
