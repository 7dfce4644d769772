// The conformance map: our clause catalogue of RAWP-DPS 1.0.1, clause-id citations in test titles,
// the side a test speaks for, and the guards that keep docs/conformance.md and
// docs/protocol/clauses.md in step with the catalogue and the test titles.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  CLAUSES,
  citationsOf,
  compareWithSpec,
  coverClauses,
  extractClauses,
  layerOf,
  renderCatalogue,
  renderMap,
  sidesOf,
  uncoveredOwners,
  type CatalogueClause,
} from '../../../src/protocol/conformance/map';
import { CATALOGUE_PATH, MAP_PATH, REPO_ROOT, generateConformanceMap } from '../../../scripts/conformance';

const MINI = [
  '### 1.1. 요구사항 표기 규약 본 문서의 "MUST", "MUST NOT", "SHOULD"은 RFC 2119를 따른다.',
  '## 2. Envelope',
  '### 2.1. 공통 Envelope 모든 프레임은 이 구조를 준수해야 한다 (MUST). 밀리초 권장 (SHOULD).',
  '```json',
  '{ "note": "코드 블록 안의 (MUST)는 조항이 아니다" }',
  '```',
  '| `v` | MUST | 수신자는 `session.error` (fatal: `false`)로 응답해야 한다 (MUST). |',
  '#### 2.1.1. 하위 절 첫 문장이다. 둘째 문장은 금지다 (MUST NOT). 셋째도 해야 한다 (MUST).',
  '## 15. 보안',
  '1. **화이트리스트**: 거부해야 한다 (MUST).',
  '2. **격리**: 초과할 수 없다 (MUST NOT).',
].join('\n');

const clause = (id: string, owners: CatalogueClause['owners'], alias?: string): CatalogueClause => ({
  id,
  section: /^§(.+)-\d+$/.exec(id)![1],
  keyword: 'MUST',
  owners,
  text: `text of ${id}`,
  ...(alias ? { alias } : {}),
});

describe('protocol/conformance: clause catalogue and conformance map', () => {
  it('extractClauses reads each (MUST)/(MUST NOT)/(SHOULD) sentence; SHOULD ids continue after the MUSTs of their section', () => {
    const clauses = extractClauses(MINI);
    assert.deepEqual(
      clauses.map((c) => [c.id, c.keyword, c.text, c.alias]),
      [
        ['§2.1-1', 'MUST', '공통 Envelope 모든 프레임은 이 구조를 준수해야 한다 (MUST)', undefined],
        ['§2.1-3', 'SHOULD', '밀리초 권장 (SHOULD)', undefined],
        ['§2.1-2', 'MUST', '수신자는 `session.error` (fatal: `false`)로 응답해야 한다 (MUST)', undefined],
        ['§2.1.1-1', 'MUST NOT', '둘째 문장은 금지다 (MUST NOT)', undefined],
        ['§2.1.1-2', 'MUST', '셋째도 해야 한다 (MUST)', undefined],
        ['§15-1', 'MUST', '화이트리스트: 거부해야 한다 (MUST)', '15.1'],
        ['§15-2', 'MUST NOT', '격리: 초과할 수 없다 (MUST NOT)', '15.2'],
      ],
    );
  });

  it('compareWithSpec names clauses missing from the catalogue, extra ones and keyword changes', () => {
    const spec = extractClauses(MINI);
    const catalogue = spec.filter((c) => c.id !== '§2.1-3').map((c) => ({ ...c, keyword: c.id === '§2.1-2' ? ('MUST NOT' as const) : c.keyword }));
    catalogue.push({ ...spec[0], id: '§9.9-1' });
    const problems = compareWithSpec(spec, catalogue);
    assert.equal(problems.length, 3);
    assert.match(problems.join('\n'), /§2\.1-3 \(SHOULD, spec line 3\) is not in the catalogue/);
    assert.match(problems.join('\n'), /§2\.1-2: the spec says MUST, the catalogue MUST NOT/);
    assert.match(problems.join('\n'), /§9\.9-1 is in the catalogue but not in the spec text/);
    assert.deepEqual(compareWithSpec(spec, spec), []);
  });

  it('the catalogue: 97 clauses of RAWP-DPS 1.0.1 (74 MUST, 14 MUST NOT, 8 SHOULD, 1 SHOULD NOT), unique ids, English one-liners, known owners', () => {
    assert.equal(CLAUSES.length, 97);
    assert.equal(new Set(CLAUSES.map((c) => c.id)).size, 97);
    const count = (k: string) => CLAUSES.filter((c) => c.keyword === k).length;
    assert.deepEqual([count('MUST'), count('MUST NOT'), count('SHOULD'), count('SHOULD NOT')], [74, 14, 8, 1]);
    for (const c of CLAUSES) {
      assert.match(c.id, /^§\d+(\.\d+)*-\d+$/, c.id);
      assert.equal(c.id.startsWith(`§${c.section}-`), true, c.id);
      assert.ok(c.owners.length > 0 && c.owners.every((o) => ['client', 'master', 'composer', 'relay'].includes(o)), c.id);
      assert.ok(!/[\uAC00-\uD7A3\n]/.test(c.text) && c.text.length <= 200, `${c.id}: one line, in English`);
    }
    // Ids test titles already cite keep their clause.
    assert.match(CLAUSES.find((c) => c.id === '§6.3.2-5')!.text, /first session\.turn\.start after a mode switch/);
    assert.match(CLAUSES.find((c) => c.id === '§7.5.2-1')!.text, /session\.usage/);
    assert.equal(CLAUSES.find((c) => c.id === '§15-3')!.alias, '15.3');
  });

  it('citations: exact sections, clause ids, list items; other documents\' sections are not DPS sections', () => {
    assert.deepEqual(citationsOf('x §7.4/§17.2.2 and §7.5.3-1, §2.1.'), ['7.4', '17.2.2', '§7.5.3-1', '2.1']);
    assert.deepEqual(citationsOf('commands slash-commands §6 splits on spaces'), []);
    assert.deepEqual(citationsOf('read-before-write: §3 ledger and §5.3.3 diff'), ['5.3.3']);
  });

  it('which side a test speaks for follows its file: masters, the reducer (both), validator tests (none), the rest client', () => {
    assert.deepEqual(sidesOf('test/unit/webview/composer.chromium.test.ts'), ['master']);
    assert.deepEqual(sidesOf('test/unit/remote/terminal.test.ts'), ['master']);
    assert.deepEqual(sidesOf('test/unit/remote/browser.test.ts'), ['master']);
    assert.deepEqual(sidesOf('test/unit/remote/fanout.test.ts'), ['client']);
    assert.deepEqual(sidesOf('test/unit/conformance/masters.test.ts'), ['master']);
    assert.deepEqual(sidesOf('test/unit/conformance/engine.clauses.test.ts'), ['client']);
    assert.deepEqual(sidesOf('test/unit/protocol/transcript-finalize.test.ts'), ['client', 'master']);
    assert.deepEqual(sidesOf('test/unit/protocol/conformance.rules.test.ts'), ['validator']);
    assert.deepEqual(sidesOf('test/unit/cli/validate.test.ts'), ['validator']);
    assert.deepEqual(sidesOf(undefined), ['client']);
  });

  it('only a clause id (or a one-clause list item) covers a clause, and only for the owner whose side the test is on', () => {
    const clauses = [
      clause('§2.1-1', ['client']),
      clause('§2.1-2', ['client', 'master']),
      clause('§6.3.2-7', ['master']),
      clause('§15-1', ['client'], '15.1'),
      clause('§14.2-1', ['client'], '14.2.1'),
      clause('§14.2-2', ['client'], '14.2.1'),
    ];
    const cov = coverClauses(clauses, [
      { fullTitle: 'engine §2.1 a whole-section citation', file: 'test/unit/session/engine.misc.test.ts' },
      { fullTitle: 'engine §2.1-2 v other than 1 gets session.error', file: 'test/unit/session/hub.test.ts' },
      { fullTitle: 'validator §2.1-1 rule', file: 'test/unit/protocol/conformance.rules.test.ts' },
      { fullTitle: 'engine §6.3.2-7 is the master\'s, not ours', file: 'test/unit/session/engine.mode.test.ts' },
      { fullTitle: 'tools §15.1 whitelist item', file: 'test/unit/tools/catalog.test.ts' },
      { fullTitle: 'parse §14.2.1 names two clauses', file: 'test/unit/protocol/parse.test.ts' },
    ]);
    const by = Object.fromEntries(cov.map((c) => [c.clause.id, c]));
    assert.deepEqual(by['§2.1-1'].tests, { client: [], master: [], validator: ['validator §2.1-1 rule'] });
    assert.deepEqual(uncoveredOwners(by['§2.1-1']), ['client']);
    assert.deepEqual(uncoveredOwners(by['§2.1-2']), ['master'], 'a two-owner clause needs a test of each side');
    assert.deepEqual(uncoveredOwners(by['§6.3.2-7']), ['master'], 'a client test never covers a master clause');
    assert.deepEqual(by['§6.3.2-7'].tests.client, ["engine §6.3.2-7 is the master's, not ours"]);
    assert.deepEqual(uncoveredOwners(by['§15-1']), []);
    assert.deepEqual(uncoveredOwners(by['§14.2-1']), ['client']);
    assert.deepEqual(uncoveredOwners(by['§14.2-2']), ['client']);
  });

  it('the map counts clauses by owner and lists what is uncovered with the layer where the fix belongs', () => {
    const cov = coverClauses([clause('§2.1-1', ['client']), clause('§16.2.2-1', ['composer']), clause('§2.4-1', ['client', 'master'])], [
      { fullTitle: 'a §2.1-1 b', file: 'test/unit/session/hub.test.ts' },
      { fullTitle: 'c §2.4-1 d', file: 'test/unit/session/hub.test.ts' },
    ]);
    const md = renderMap(cov);
    assert.match(md, /\*\*3 clauses, 1 covered, 2 not yet covered\.\*\*/);
    assert.match(md, /^\| client \| 2 \| 2 \| 0 \| 2 \| 0 \|$/m);
    assert.match(md, /^\| master \| 1 \| 1 \| 0 \| 0 \| 1 \|$/m);
    assert.match(md, /^\| composer \| 1 \| 1 \| 0 \| 0 \| 1 \|$/m);
    assert.match(md, /^\| §2\.4-1 \| MUST \| client ✓, \*\*master\*\* ✗ \| text of §2\.4-1 \| 1: c §2\.4-1 d \| {2}\| {2}\|$/m);
    assert.match(md, /### composer \(1\)\n\n- §16\.2\.2-1 \(MUST; webview-ui\) — text of §16\.2\.2-1/);
    assert.match(md, /### client \(0\)\n\nNone: every client clause is cited by a client test\./);
    assert.equal(layerOf('§17.3.2-1', '17.3.2'), 'session');
    assert.equal(layerOf('§15-3', '15'), 'webview-ui');
  });

  it('a clause of a relaying master (a broadcast to edge connections) is never uncovered, says why, and counts as neither covered nor uncovered', () => {
    const relayed: CatalogueClause = { ...clause('§7.6.1-1', ['relay']), note: 'our masters have no edge connections' };
    const cov = coverClauses([clause('§2.1-1', ['client']), relayed], [{ fullTitle: 'a §2.1-1 b', file: 'test/unit/session/hub.test.ts' }]);
    assert.deepEqual(uncoveredOwners(cov[1]), []);
    const md = renderMap(cov);
    assert.match(md, /\*\*2 clauses, 1 covered, 0 not yet covered, 1 only a relaying master can keep\.\*\*/);
    assert.match(md, /^\| relay \(not applicable\) \| 1 \| 1 \| 0 \| — \| — \|$/m);
    assert.match(md, /^\| §7\.6\.1-1 \| MUST \| relay \(n\/a\) \| text of §7\.6\.1-1 \*\(relay: our masters have no edge connections\)\* \|/m);
    assert.match(md, /## Clauses of a relaying master \(1\): not applicable to our masters\n\n- §7\.6\.1-1 \(MUST\) — text of §7\.6\.1-1 Why: our masters have no edge connections/);
    for (const c of CLAUSES) if (c.owners.includes('relay')) assert.ok(c.note && c.note.length <= 200, `${c.id}: a relay clause keeps its reason`);
  });

  it('docs/protocol/clauses.md is what the catalogue renders (else run: npm run conformance)', () => {
    const actual = existsSync(CATALOGUE_PATH) ? readFileSync(CATALOGUE_PATH, 'utf8') : '';
    assert.equal(actual, renderCatalogue(), 'docs/protocol/clauses.md is stale: run `npm run conformance`');
    assert.match(actual, /RAWP-DPS 1\.0\.1/);
  });

  it('docs/conformance.md is up to date with the catalogue and the test titles (else run: npm run conformance)', function () {
    this.timeout(180_000);
    const expected = generateConformanceMap(REPO_ROOT);
    const actual = existsSync(MAP_PATH) ? readFileSync(MAP_PATH, 'utf8') : '';
    if (actual !== expected) {
      const a = actual.split('\n');
      const e = expected.split('\n');
      const i = e.findIndex((line, n) => line !== a[n]);
      assert.fail(`docs/conformance.md is stale — run \`npm run conformance\` and commit it.\nfirst difference at line ${i + 1}:\n  file: ${a[i] ?? '(missing)'}\n  now:  ${e[i]}`);
    }
    assert.match(expected, /\*\*97 clauses, \d+ covered, \d+ not yet covered(, \d+ only a relaying master can keep)?\.\*\*/);
  });

  it('the repository stands alone: no test, script, source or generated doc names a path outside it', () => {
    // Built from pieces so this file does not match itself.
    const outside = new RegExp(['\\.\\./' + 'shared/', '/' + 'work/(shared|main|wt)\\b', 'shared/' + '(spec|bench-data|notes)', 'RAWP_' + 'SPEC_DIR'].join('|'));
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (name === 'node_modules' || name.startsWith('.')) continue;
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(ts|tsx|js|mjs|cjs|sh|md|json)$/.test(name) && outside.test(readFileSync(p, 'utf8'))) offenders.push(relative(REPO_ROOT, p));
      }
    };
    for (const d of ['src', 'test', 'scripts', 'docs', 'webview-ui']) walk(join(REPO_ROOT, d));
    assert.deepEqual(offenders, []);
  });
});
