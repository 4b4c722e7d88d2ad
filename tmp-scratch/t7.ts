import * as chrono from 'chrono-node';
const texts = ['We met on the 3rd of March 2024 and again on March 3, 2024.', 'See you the 1st of May, she said.', 'He was born in 1985 in Leeds.', 'Invoice 2024-03-01 due by 5 June.', 'Call me tomorrow or next week at 5pm.', 'Version 2019 of the tool costs 2024 dollars.', 'The meeting is on Tuesday, 14 February 2023 at 10:30.', 'I may do that. March on!', 'Record 1234 updated', 'Since 2019 she has lived here; class of 2010.'];
let t0 = performance.now();
for (const t of texts) {
  const found = chrono.en.strict.parse(t);
  const casual = chrono.en.casual.parse(t);
  console.log(JSON.stringify(t), JSON.stringify(found.map((d) => [d.text, d.index])), JSON.stringify(casual.map((d) => [d.text, d.index])));
}
console.log('ms', performance.now() - t0);
const big = texts.join(' ').repeat(20);
t0 = performance.now();
chrono.en.strict.parse(big);
console.log('strict ms for', big.length, performance.now() - t0);
t0 = performance.now();
chrono.en.casual.parse(big);
console.log('casual ms for', big.length, performance.now() - t0);
