import { createPiiEngine } from '../core/pii/engine.ts';
const e = createPiiEngine();
const texts = ['We met on the 3rd of March 2024 and again on March 3, 2024.', 'See you the 1st of May, she said.', 'He was born in 1985 in Leeds.', 'Invoice 2024-03-01 due by 5 June.', 'Call me tomorrow or next week at 5pm.', 'Version 2019 of the tool costs 2024 dollars.', 'The meeting is on Tuesday, 14 February 2023 at 10:30.', 'I may do that. March on!', 'Since 2019 she has lived here; class of 2010.', 'Sept. 5th, 2021 and 12 Dec 2020 and Jan 2022'];
for (const t of texts) console.log(JSON.stringify(t), JSON.stringify(e.scan(t,{entities:['DATE_TIME']}).entities.map(f=>[[...t].slice(f.start,f.end).join(''), f.score])));
