// The conformance map: clause extraction from the spec, citation matching, and the guard that
// keeps docs/conformance.md in step with the spec and the test titles.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { citationsOf, coverClauses, excerpt, extractClauses, ownerOf, renderMap } from '../../../src/protocol/conformance/map';
import { MAP_PATH, REPO_ROOT, generateConformanceMap, specPath } from '../../../scripts/conformance';

const MINI = [
  '### 1.1. 요구사항 표기 규약 본 문서의 "MUST", "MUST NOT"은 RFC 2119를 따른다.',
  '## 2. Envelope',
  '### 2.1. 공통 Envelope 모든 프레임은 이 구조를 준수해야 한다 (MUST). ',
  '```json',
  '{ "note": "코드 블록 안의 (MUST)는 조항이 아니다" }',
  '```',
  '### 필드 상세',
  '| `v` | MUST | 수신자는 `session.error` (fatal: `false`)로 응답해야 한다 (MUST). |',
  '#### 2.1.1. 하위 절 첫 문장이다. 둘째 문장은 금지다 (MUST NOT). 셋째도 해야 한다 (MUST).',
  '## 15. 보안',
  '1. **화이트리스트**: 거부해야 한다 (MUST).',
  '2. **격리**: 초과할 수 없다 (MUST NOT).',
].join('\n');

describe('protocol/conformance: map of MUST clauses', () => {
  it('extracts each (MUST)/(MUST NOT) sentence with its section, skipping §1.1\'s definitions and code blocks', () => {
    const clauses = extractClauses(MINI);
    assert.deepEqual(
      clauses.map((c) => [c.id, c.keyword, c.text, c.alias]),
      [
        ['§2.1-1', 'MUST', '공통 Envelope 모든 프레임은 이 구조를 준수해야 한다 (MUST)', undefined],
        ['§2.1-2', 'MUST', '수신자는 `session.error` (fatal: `false`)로 응답해야 한다 (MUST)', undefined],
        ['§2.1.1-1', 'MUST NOT', '둘째 문장은 금지다 (MUST NOT)', undefined],
        ['§2.1.1-2', 'MUST', '셋째도 해야 한다 (MUST)', undefined],
        ['§15-1', 'MUST', '화이트리스트: 거부해야 한다 (MUST)', '15.1'],
        ['§15-2', 'MUST NOT', '격리: 초과할 수 없다 (MUST NOT)', '15.2'],
      ],
    );
    assert.equal(clauses[0].line, 3);
  });

  it('the spec has exactly 88 MUST / MUST NOT clauses, numbered per section', () => {
    const clauses = extractClauses(readFileSync(specPath(), 'utf8'));
    assert.equal(clauses.length, 88);
    assert.equal(new Set(clauses.map((c) => c.id)).size, 88);
    assert.equal(clauses.filter((c) => c.keyword === 'MUST NOT').length, 14);
    assert.ok(!clauses.some((c) => c.section === '1.1'));
    const turnEnd = clauses.find((c) => c.id === '§7.5.2-1');
    assert.match(turnEnd!.text, /session\.usage/);
  });

  it('excerpts are short and keep the keyword', () => {
    const [c] = extractClauses(`## 3. x\n${'가'.repeat(300)}해야 한다 (MUST NOT).`);
    const e = excerpt(c, 50);
    assert.ok(e.length < 70);
    assert.match(e, /… \(MUST NOT\)$/);
  });

  it('citations: exact sections, clause ids, list items; other documents\' sections are not DPS sections', () => {
    assert.deepEqual(citationsOf('x §7.4/§17.2.2 and §7.5.3-1, §2.1.'), ['7.4', '17.2.2', '§7.5.3-1', '2.1']);
    assert.deepEqual(citationsOf('commands slash-commands §6 splits on spaces'), []);
    assert.deepEqual(citationsOf('read-before-write: §3 ledger and §5.3.3 diff'), ['5.3.3']);
  });

  it('a test covers the clauses of exactly the cited section, never those of its subsections', () => {
    const clauses = extractClauses(MINI);
    const cov = coverClauses(clauses, [
      { fullTitle: 'suite §2.1 envelope' },
      { fullTitle: 'suite §2.1.1-2 one clause' },
      { fullTitle: 'suite §15.2 isolation' },
      { fullTitle: 'suite §2 parent only' },
    ]);
    const by = Object.fromEntries(cov.map((c) => [c.clause.id, c.tests]));
    assert.deepEqual(by['§2.1-1'], ['suite §2.1 envelope']);
    assert.deepEqual(by['§2.1.1-1'], []);
    assert.deepEqual(by['§2.1.1-2'], ['suite §2.1.1-2 one clause']);
    assert.deepEqual(by['§15-1'], []);
    assert.deepEqual(by['§15-2'], ['suite §15.2 isolation']);
  });

  it('the map lists every clause, counts its tests and groups uncovered clauses by owning layer', () => {
    const cov = coverClauses(extractClauses(MINI), [{ fullTitle: 'a §2.1 b' }]);
    const md = renderMap(cov, 'mini.md');
    assert.match(md, /\*\*6 clauses, 2 covered, 4 uncovered\.\*\*/);
    assert.match(md, /^\| §2\.1-1 \| §2\.1 \| .+ \| 1 \| a §2\.1 b \|$/m);
    assert.match(md, /### protocol \(2\)\n\n- §2\.1\.1-1 — .+\n- §2\.1\.1-2 — .+\n\n### session \(1\)\n\n- §15-1 — .+\n\n### tools \(1\)\n\n- §15-2 — /);
    assert.equal(ownerOf('§7.8.1-2', '7.8.1'), 'protocol');
    assert.equal(ownerOf('§15-3', '15'), 'webview-ui');
    assert.equal(ownerOf('§17.3.2-1', '17.3.2'), 'session');
    assert.equal(ownerOf('§10.3.1-1', '10.3.1'), 'agents');
  });

  it('the spec path is ../shared/spec beside the repository unless RAWP_SPEC_DIR says otherwise', () => {
    assert.equal(specPath('/ci/repo', {}), '/ci/shared/spec/rawp-dps-1.0.md');
    assert.equal(specPath('/ci/repo', { RAWP_SPEC_DIR: '/opt/spec' }), '/opt/spec/rawp-dps-1.0.md');
    assert.ok(existsSync(specPath()), `spec not found at ${specPath()}`);
  });

  it('docs/conformance.md is up to date with the spec and the test titles (else run: npm run conformance)', function () {
    this.timeout(120_000);
    const expected = generateConformanceMap(REPO_ROOT);
    const actual = existsSync(MAP_PATH) ? readFileSync(MAP_PATH, 'utf8') : '';
    if (actual !== expected) {
      const a = actual.split('\n');
      const e = expected.split('\n');
      const i = e.findIndex((line, n) => line !== a[n]);
      assert.fail(`docs/conformance.md is stale — run \`npm run conformance\` and commit it.\nfirst difference at line ${i + 1}:\n  file: ${a[i] ?? '(missing)'}\n  now:  ${e[i]}`);
    }
    assert.match(expected, /\*\*88 clauses, \d+ covered, \d+ uncovered\.\*\*/);
    assert.ok(expected.includes(join('shared', 'spec', 'rawp-dps-1.0.md')));
  });
});
