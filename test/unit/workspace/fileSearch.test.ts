// Fuzzy search ranking and result shape (§16.1.2), on in-memory indexes of real-looking paths.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { FileIndex } from '../../../src/workspace/fileIndex';
import { FileSearcher, normalizeQuery, type SearchRequest } from '../../../src/workspace/fileSearch';
import { bestAlignment, quickScore, toRanges } from '../../../src/workspace/fuzzyScore';
import { quickScoreBytes } from '../../../src/workspace/quickScoreBytes';
import { quickBonusCaps, quickBonusSum, quickScoreBound } from '../../../src/workspace/quickBound';
import { PathSnapshot, baseStartOf, charBit } from '../../../src/workspace/pathSnapshot';

const PATHS = [
  'src/vs/workbench/contrib/chat/browser/chatWidget.ts',
  'src/vs/workbench/contrib/chat/browser/chatInputPart.ts',
  'src/chat/widget.ts',
  'src/chat/widgetHost.ts',
  'src/cheat/twiddle.go',
  'packages/chart/src/two-dogs.ts',
  'src/auth.ts',
  'src/auth/authService.ts',
  'test/auth.test.ts',
  'docs/authoring.md',
  'lib/utils/string_helpers.ts',
  'lib/utils/strings.ts',
  'README.md',
  'src/readme/handler.ts',
  'drivers/net/ethernet/intel/e1000/e1000_main.c',
  'drivers/net/ethernet/intel/e1000e/netdev.c',
  'main.c',
  'src/main.c',
  'src/domain/main.c',
  'tools/maintainer/contains.c',
  'src/components/Button/index.tsx',
  'src/components/ButtonGroup/index.tsx',
  'src/index.ts',
];

function searcher(paths = PATHS, leaders?: number) {
  return new FileSearcher(FileIndex.fromPaths([{ name: 'ws', paths }]), leaders);
}
const top = (s: FileSearcher, req: SearchRequest | string, n = 5) => s.searchSync(typeof req === 'string' ? { query: req } : req).hits.slice(0, n).map((h) => h.path);

function isSubsequence(q: string, path: string): boolean {
  let j = 0;
  const l = path.toLowerCase();
  for (const c of q) {
    j = l.indexOf(c, j);
    if (j < 0) return false;
    j++;
  }
  return true;
}

describe('workspace/fileSearch: ranking a person expects', () => {
  it('§16.1.1 abbreviations are never dropped: chtwdg finds chat/widget', () => {
    const s = searcher();
    const hits = top(s, 'chtwdg', 5);
    for (const p of ['src/vs/workbench/contrib/chat/browser/chatWidget.ts', 'src/chat/widget.ts', 'src/chat/widgetHost.ts']) assert.ok(hits.includes(p), p);
    assert.ok(hits.indexOf('src/chat/widget.ts') < hits.indexOf('src/chat/widgetHost.ts'), 'the shorter path first');
    // every subsequence match counts, however scattered (no score threshold)
    const all = s.searchSync({ query: 'chtwdg', max_results: 50 });
    assert.equal(all.total_count, PATHS.filter((p) => isSubsequence('chtwdg', p)).length);
  });

  it('§16.1.1 the exact path comes first', () => {
    assert.equal(top(searcher(), 'src/main.c', 1)[0], 'src/main.c');
    assert.equal(top(searcher(), 'main.c', 1)[0], 'main.c');
  });

  it('§16.1.1 basename matches rank above directory matches', () => {
    const hits = top(searcher(), 'auth', 4);
    assert.deepEqual(hits, ['src/auth.ts', 'test/auth.test.ts', 'src/auth/authService.ts', 'docs/authoring.md'], 'whole word before word prefix');
    const readme = top(searcher(), 'readme', 2);
    assert.equal(readme[0], 'README.md', 'the README file, not the readme/ directory');
  });

  it('§16.1.1 word starts score: separators and camelCase humps (chatWidget, string_helpers, e1000_main)', () => {
    assert.deepEqual(top(searcher(), 'cw', 3).sort(), ['src/chat/widget.ts', 'src/chat/widgetHost.ts', 'src/vs/workbench/contrib/chat/browser/chatWidget.ts']);
    assert.equal(top(searcher(), 'strhe', 1)[0], 'lib/utils/string_helpers.ts');
    assert.equal(top(searcher(), 'e1000main', 1)[0], 'drivers/net/ethernet/intel/e1000/e1000_main.c');
  });

  it('§16.1.1 contiguous runs beat scattered letters, and basename prefixes beat inner matches', () => {
    const hits = top(searcher(), 'main', 4);
    assert.deepEqual(hits.slice(0, 3), ['main.c', 'src/main.c', 'src/domain/main.c']);
    assert.ok(!hits.slice(0, 3).includes('tools/maintainer/contains.c'));
  });

  it('§16.1.1 a query with / matches across directories', () => {
    assert.equal(top(searcher(), 'chat/wid', 1)[0], 'src/chat/widget.ts');
    assert.equal(top(searcher(), 'button/index', 1)[0], 'src/components/Button/index.tsx');
    assert.equal(top(searcher(), 'intel/e1000e', 1)[0], 'drivers/net/ethernet/intel/e1000e/netdev.c');
  });

  it('§16.1.2 match_ranges are merged half-open ranges into path, match_score is within 0.0–1.0', () => {
    const res = searcher().searchSync({ query: 'aut', max_results: 50 });
    const auth = res.hits.find((h) => h.path === 'src/auth.ts');
    assert.ok(auth);
    assert.deepEqual(auth.match_ranges, [{ start: 4, end: 7 }]);
    for (const h of res.hits) {
      assert.ok(h.match_score >= 0 && h.match_score <= 1, `${h.match_score}`);
      const covered = h.match_ranges.reduce((n, r) => n + r.end - r.start, 0);
      assert.equal(covered, 3);
      for (let i = 1; i < h.match_ranges.length; i++) assert.ok(h.match_ranges[i].start > h.match_ranges[i - 1].end, 'ranges are merged and ordered');
      const highlighted = h.match_ranges.map((r) => h.path.slice(r.start, r.end)).join('').toLowerCase();
      assert.equal(highlighted, 'aut');
    }
    const scores = res.hits.map((h) => h.match_score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a), 'ordered by score');
    assert.deepEqual(toRanges([0, 1, 2, 5, 7, 8]), [
      { start: 0, end: 3 },
      { start: 5, end: 6 },
      { start: 7, end: 9 },
    ]);
  });

  it('§16.1.1 max_results defaults to 20 and is capped at 50; total_count and truncated tell the rest', () => {
    const many = Array.from({ length: 120 }, (_, i) => `dir${i % 7}/file${i}.ts`);
    const s = searcher(many);
    const def = s.searchSync({ query: 'file' });
    assert.equal(def.hits.length, 20);
    assert.equal(def.total_count, 120);
    assert.equal(def.truncated, true);
    assert.equal(s.searchSync({ query: 'file', max_results: 500 }).hits.length, 50);
    const few = s.searchSync({ query: 'file119' });
    assert.equal(few.truncated, false);
    assert.equal(few.total_count, few.hits.length);
  });

  it('§16.1.1 filters: extensions (with or without the dot) and exclude_patterns as globs', () => {
    const s = searcher();
    const ts = s.searchSync({ query: 'a', max_results: 50, filters: { extensions: ['.md', 'c'] } });
    assert.ok(ts.hits.length > 0);
    for (const h of ts.hits) assert.ok(/\.(md|c)$/.test(h.path), h.path);
    const ex = s.searchSync({ query: 'a', max_results: 50, filters: { exclude_patterns: ['src/**', '**/*.md'] } });
    assert.ok(ex.hits.length > 0);
    for (const h of ex.hits) assert.ok(!h.path.startsWith('src/') && !h.path.endsWith('.md'), h.path);
    assert.equal(ex.total_count, PATHS.filter((p) => isSubsequence('a', p) && !p.startsWith('src/') && !p.endsWith('.md')).length);
  });

  it('§16.1.1 scope project is the first workspace folder; multi-root paths carry the folder name', () => {
    const index = FileIndex.fromPaths([
      { name: 'app', paths: ['src/main.ts'] },
      { name: 'lib', paths: ['src/main.ts', 'lib.ts'] },
    ]);
    const s = new FileSearcher(index);
    assert.deepEqual(s.searchSync({ query: 'main' }).hits.map((h) => h.path).sort(), ['app/src/main.ts', 'lib/src/main.ts']);
    assert.deepEqual(s.searchSync({ query: 'main', scope: 'project' }).hits.map((h) => h.path), ['app/src/main.ts']);
    const hit = s.searchSync({ query: 'main', scope: 'project' }).hits[0];
    assert.equal(hit.path.slice(hit.match_ranges[0].start, hit.match_ranges[0].end), 'main');
  });

  it('§16.1.1 queries are case-insensitive, ignore spaces and accept \\ as /', () => {
    assert.equal(normalizeQuery('Chat Widget'), 'chatwidget');
    assert.equal(top(searcher(), 'CHAT\\WID', 1)[0], 'src/chat/widget.ts');
  });

  it('§16.1.1 non-ASCII paths and queries match and highlight correctly', () => {
    const s = searcher(['docs/测试/ペンギン.jpg', 'docs/“quoted”.md', 'src/Ünïcode.ts', 'src/plain.ts']);
    const hit = s.searchSync({ query: 'ペンギン' }).hits[0];
    assert.equal(hit.path, 'docs/测试/ペンギン.jpg');
    assert.equal(hit.path.slice(hit.match_ranges[0].start, hit.match_ranges[0].end), 'ペンギン');
    assert.equal(top(s, 'ünï', 1)[0], 'src/Ünïcode.ts');
    assert.equal(top(s, 'quoted', 1)[0], 'docs/“quoted”.md');
  });

  it('§16.1.1 accents fold as fzf folds them: cafe finds café, ecole and école find école precomposed or written as e + a combining accent (macOS), and the highlight covers the accented letter', () => {
    const nfd = 'notes/e\u0301cole.txt';
    const s = searcher(['docs/café.md', 'docs/cafe-old.md', 'notes/école.txt', nfd, 'Ünïcödé_naïve.txt', 'src/plain.ts']);
    assert.deepEqual(top(s, 'cafe', 2).sort(), ['docs/cafe-old.md', 'docs/café.md']);
    assert.deepEqual(top(s, 'café', 2).sort(), ['docs/cafe-old.md', 'docs/café.md'], 'a query with its accent finds the plain name too');
    for (const q of ['ecole', 'école', 'E\u0301COLE']) assert.deepEqual(top(s, q, 2).sort(), [nfd, 'notes/école.txt'].sort(), q);
    assert.equal(top(s, 'naive', 1)[0], 'Ünïcödé_naïve.txt');
    assert.equal(top(s, 'unicode', 1)[0], 'Ünïcödé_naïve.txt');
    const hit = s.searchSync({ query: 'cafe' }).hits.find((h) => h.path === 'docs/café.md')!;
    assert.equal(hit.path.slice(hit.match_ranges[0].start, hit.match_ranges[hit.match_ranges.length - 1].end), 'café');
    assert.equal(normalizeQuery('Crème Brûlée'), 'cremebrulee');
    // A file added since the snapshot (the watcher's overlay) folds the same way.
    const live = FileIndex.fromPaths([{ name: 'ws', paths: ['src/plain.ts'] }]);
    live.folders[0].index.apply([{ kind: 'addFile', path: 'docs/Résumé.md' }]);
    assert.deepEqual(new FileSearcher(live).searchSync({ query: 'resume' }).hits.map((h) => h.path), ['docs/Résumé.md']);
  });
});

describe('workspace/fileSearch: names stored decomposed (NFD, as macOS writes them)', () => {
  const meetingNfd = 'docs/회의록.md'.normalize('NFD');
  const ecoleNfd = 'notes/école.txt'.normalize('NFD');

  it('§16.1.1 a Korean name stored as jamo is found by the syllables typed, and given back as named on disk with its highlight on the whole name (it was found by nothing typed)', () => {
    assert.notEqual(meetingNfd, 'docs/회의록.md');
    const s = searcher([meetingNfd, 'docs/회의.md', ecoleNfd, 'src/plain.ts']);
    const hit = s.searchSync({ query: '회의록' }).hits[0];
    assert.equal(hit.path, meetingNfd, 'the real name, so the file opens');
    assert.equal(hit.path.slice(hit.match_ranges[0].start, hit.match_ranges[hit.match_ranges.length - 1].end), '회의록'.normalize('NFD'));
    assert.deepEqual(top(s, '회의록'.normalize('NFD'), 1), [meetingNfd], 'typed as jamo too');
    const ecole = s.searchSync({ query: 'école' }).hits[0];
    assert.equal(ecole.path, ecoleNfd);
    assert.equal(ecole.path.slice(ecole.match_ranges[0].start, ecole.match_ranges[ecole.match_ranges.length - 1].end), 'école'.normalize('NFD'));
  });

  it('the index lists, answers has() and takes watcher changes under the names on disk', () => {
    const index = FileIndex.fromPaths([{ name: 'ws', paths: [meetingNfd, 'src/plain.ts'] }]);
    const folder = index.folders[0].index;
    assert.deepEqual(folder.allPaths().sort(), [meetingNfd, 'src/plain.ts'].sort());
    assert.ok(folder.has(meetingNfd) && folder.has('docs/회의록.md'));
    const addedNfd = 'docs/보고서.md'.normalize('NFD');
    folder.apply([{ kind: 'addFile', path: addedNfd }, { kind: 'remove', path: meetingNfd }]);
    assert.deepEqual(folder.allPaths().sort(), [addedNfd, 'src/plain.ts'].sort());
    assert.deepEqual(new FileSearcher(index).searchSync({ query: '보고서' }).hits.map((h) => h.path), [addedNfd]);
    assert.deepEqual(new FileSearcher(index).searchSync({ query: '회의록' }).hits, []);
    // A decomposed folder removed as a whole takes its files with it.
    const dirNfd = '회의/메모.md'.normalize('NFD');
    folder.apply([{ kind: 'addFile', path: dirNfd }]);
    assert.ok(folder.has(dirNfd));
    folder.apply([{ kind: 'remove', path: '회의'.normalize('NFD') }]);
    assert.ok(!folder.has(dirNfd));
  });

  it('both forms of one name on disk (possible on Linux) stay two listed files', () => {
    const both = ['notes/école.txt', ecoleNfd];
    const index = FileIndex.fromPaths([{ name: 'ws', paths: both }]);
    assert.deepEqual(index.folders[0].index.allPaths().sort(), [...both].sort());
  });
});

describe('workspace/fileSearch: the async search never holds the event loop for a whole scan', () => {
  it('issue 18: a scan of 40,000 candidates is cut into slices of a few thousand paths, each followed by a turn of the loop', async () => {
    const paths = Array.from({ length: 40000 }, (_, i) => `pkg${i % 50}/src/module${i}/index${i % 7}.ts`);
    const s = searcher(paths);
    // budgetMs 0: the driver yields after every step, so the turns counted are the steps taken.
    let turns = 0;
    let done = false;
    const tick = (): void => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const result = await s.search({ query: 'ix' }, { cancelled: false }, 0);
    done = true;
    assert.ok(result);
    assert.equal(result.total_count, 40000);
    assert.deepEqual(result, s.searchSync({ query: 'ix' }));
    assert.ok(turns >= 40000 / 4096, `only ${turns} event-loop turns during the scan`);
  });
});

describe('workspace/fileSearch: the arrays reused between keystrokes', () => {
  it('issue 18: interleaved, cancelled and sequential searches on one searcher answer what fresh searchers answer', async () => {
    const paths = Array.from({ length: 12000 }, (_, i) => `pkg${i % 40}/src${i % 3}/mod${(i * 7919) % 12000}/in${i % 11}dex.ts`);
    const view = (r: ReturnType<FileSearcher['searchSync']> | undefined) => r && { total: r.total_count, hits: r.hits.map((h) => [h.path, h.score, h.match_ranges]) };
    const fresh = (query: string) => view(searcher(paths).searchSync({ query, max_results: 50 }));
    const s = searcher(paths);
    s.searchSync({ query: 'i', max_results: 50 });
    s.searchSync({ query: 'in', max_results: 50 });
    // budgetMs 0: the two scans take turns after every slice, both narrowing from 'in'.
    const [a, b] = await Promise.all([s.search({ query: 'ind', max_results: 50 }, { cancelled: false }, 0), s.search({ query: 'inde', max_results: 50 }, { cancelled: false }, 0)]);
    assert.deepEqual(view(a), fresh('ind'));
    assert.deepEqual(view(b), fresh('inde'));
    // A search dropped midway hands its arrays back and leaves the survivors it would replace.
    const token = { cancelled: false };
    const dropped = s.search({ query: 'index', max_results: 50 }, token, 0);
    setImmediate(() => (token.cancelled = true));
    assert.equal(await dropped, undefined);
    for (const query of ['index', 'index.', 'i', 'in', 'ind', 'x', 'xt']) assert.deepEqual(view(s.searchSync({ query, max_results: 50 })), fresh(query), query);
  });
});

describe('workspace/fileSearch: narrowing and bounds (properties)', () => {
  const pathArb = fc.stringMatching(/^[a-cA-C_./-]{1,6}(\/[a-cA-C_.-]{1,8}){0,3}$/);

  it('§16.1.1 keystroke-by-keystroke narrowing gives exactly what a fresh search gives (300 random workspaces)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(pathArb, { minLength: 1, maxLength: 60 }), fc.stringMatching(/^[a-c_./]{1,6}$/), (paths, query) => {
        const typed = searcher(paths, 8);
        let last;
        for (let k = 1; k <= query.length; k++) last = typed.searchSync({ query: query.slice(0, k), max_results: 50 });
        const fresh = searcher(paths, 8).searchSync({ query, max_results: 50 });
        const view = (r: typeof fresh) => ({ ...r, hits: r.hits.map(({ path, score, match_ranges }) => ({ path, score, match_ranges })) });
        assert.ok(last);
        assert.deepEqual(view(last), view(fresh));
        assert.equal(fresh.total_count, paths.filter((p) => isSubsequence(query, p)).length);
      }),
      { numRuns: 300 },
    );
  });

  it('§16.1.1 the quick score never exceeds the exact score, and the pruning bound never falls below the quick score', () => {
    fc.assert(
      fc.property(pathArb, fc.stringMatching(/^[a-c_./]{1,5}$/), (path, q) => {
        const lower = path.toLowerCase();
        const bs = baseStartOf(path);
        const exact = bestAlignment(path, lower, bs, q);
        const quick = quickScore(path, lower, bs, q);
        const snap = PathSnapshot.build([path]);
        const bytes = quickScoreBytes(snap.chars, snap.upper, 0, path.length, bs, new Uint8Array([...q].map((c) => c.charCodeAt(0))), q.length);
        if (!exact) {
          assert.ok(Number.isNaN(quick) && Number.isNaN(bytes));
          return;
        }
        assert.ok(quick <= exact.score + 1e-9, `quick ${quick} > exact ${exact.score}`);
        assert.ok(bytes <= exact.score + 1e-9, `bytes ${bytes} > exact ${exact.score}`);
        const nameHasAll = [...q].every((c) => lower.slice(bs).includes(c));
        const qb = new Uint8Array([...q].map((c) => c.charCodeAt(0)));
        const ub = quickScoreBound(q.length, path.length, path.length - bs, nameHasAll, lower.startsWith(q, bs), quickBonusSum(snap.startMask[0], Int32Array.from(q, (c) => charBit(c.charCodeAt(0))), quickBonusCaps(qb))) - path.length / 8;
        assert.ok(ub >= bytes - 1e-9, `bound ${ub} < quick ${bytes}`);
      }),
      { numRuns: 2000 },
    );
  });
});
