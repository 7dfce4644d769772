// `npm run clauses:check -- SPEC.md`: compares the clause catalogue with a spec text the maintainer
// names (e.g. a new RAWP-DPS version): every "(MUST)" / "(MUST NOT)" / "(SHOULD)" / "(SHOULD NOT)"
// sentence must be in the catalogue under the same id and keyword, and the catalogue must hold
// nothing else. Exit 1 with the differences otherwise. Not part of `npm test`: the repository does
// not depend on any file outside it.
import { readFileSync } from 'node:fs';
import { CLAUSES, compareWithSpec, extractClauses } from '../src/protocol/conformance/map';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run clauses:check -- PATH/TO/rawp-dps-1.0.md');
  process.exit(2);
}
const problems = compareWithSpec(extractClauses(readFileSync(file, 'utf8')), CLAUSES);
for (const p of problems) console.log(p);
console.log(problems.length === 0 ? `the catalogue matches ${file}: ${CLAUSES.length} clauses` : `${problems.length} differences`);
process.exit(problems.length === 0 ? 0 : 1);
