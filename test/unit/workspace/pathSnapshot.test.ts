// The compact path snapshot (issue 18): paths round-trip exactly from bytes + case bits, lookups
// agree with a plain sorted array, and the build runs in small steps that equal the one-shot build.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { PathSnapshot } from '../../../src/workspace/pathSnapshot';
import { sortedUniqueSteps } from '../../../src/workspace/slicedSort';
import { boundaryBonus } from '../../../src/workspace/fuzzyScore';
import { bonusAt } from '../../../src/workspace/quickScoreBytes';

const codeUnitOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sortedUnique = (xs: readonly string[]) => [...new Set(xs)].sort(codeUnitOrder);

// Paths with upper case, digits, separators, Latin-1, CJK, an astral character and the dotted İ
// (whose lower case is two code units).
const segment = fc.stringMatching(/^[a-zA-Z0-9_.\-éÉßÀ한글😀İ ]{1,8}$/);
const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

describe('workspace/pathSnapshot: compact layout without losing a path', () => {
  it('§16.1.1 every path comes back exactly (case, non-ASCII, duplicates dropped, code-unit order)', () => {
    fc.assert(
      fc.property(fc.array(pathArb, { maxLength: 60 }), (paths) => {
        const snap = PathSnapshot.build(paths);
        assert.deepEqual(snap.allPaths(), sortedUnique(paths));
      }),
      { numRuns: 300 },
    );
  });

  it('§16.1.1 find, has and the directory ranges agree with a plain sorted list', () => {
    fc.assert(
      fc.property(fc.array(pathArb, { minLength: 1, maxLength: 40 }), pathArb, (paths, probe) => {
        const snap = PathSnapshot.build(paths);
        const list = sortedUnique(paths);
        for (const p of [...list, probe]) {
          const want = list.indexOf(p);
          const got = snap.find(p);
          if (want >= 0) assert.equal(got, want, p);
          else assert.equal(-got - 1, list.filter((x) => x < p).length, `insertion point of ${p}`);
        }
        for (const p of list) {
          const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : undefined;
          if (dir === undefined) continue;
          const r = snap.rangeUnder(dir);
          const under = list.map((x, i) => [x, i] as const).filter(([x]) => x.startsWith(dir + '/'));
          assert.deepEqual([r.start, r.end], [under[0][1], under[under.length - 1][1] + 1], dir);
          assert.ok(snap.hasUnder(dir));
        }
        assert.equal(snap.hasUnder('no-such-dir-ever'), false);
      }),
      { numRuns: 200 },
    );
  });

  it('§16.1.1 the word-start bonus from bytes and case bits equals the one from the string', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z0-9_./\- ]{1,30}$/), (path) => {
        const snap = PathSnapshot.build([path]);
        for (let j = 0; j < path.length; j++) assert.equal(bonusAt(snap.chars, snap.upper, 0, j), boundaryBonus(path, j), `${path} @${j}`);
      }),
      { numRuns: 300 },
    );
  });

  it('§16.1.1 the digit mask holds exactly the digits of each path (bit d for digit d)', () => {
    fc.assert(
      fc.property(fc.array(pathArb, { minLength: 1, maxLength: 30 }), (paths) => {
        const snap = PathSnapshot.build(paths);
        for (let i = 0; i < snap.size; i++) {
          const path = snap.pathAt(i);
          let want = 0;
          for (const c of path) if (c >= '0' && c <= '9') want |= 1 << (c.charCodeAt(0) - 48);
          assert.equal(snap.digitMask[i], want, path);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('issue 18: the sliced build equals the one-shot build and yields between small steps', async () => {
    const paths = Array.from({ length: 30000 }, (_, i) => `dir${(i * 7919) % 97}/Sub${i % 13}/file${(i * 104729) % 30011}.ts`);
    const one = PathSnapshot.build(paths);
    const sliced = await PathSnapshot.buildAsync(paths, 1);
    assert.deepEqual(sliced.allPaths(), one.allPaths());
    assert.deepEqual(Array.from(sliced.mask), Array.from(one.mask));
    // The sort alone of 30,000 unsorted keys yields many times (every few thousand comparisons):
    // it never runs as one block.
    const it = sortedUniqueSteps(paths);
    let yields = 0;
    let r = it.next();
    while (!r.done) {
      yields++;
      r = it.next();
    }
    assert.ok(yields >= 30000 * Math.log2(30000 / 32) / 4096 / 2, `only ${yields} yields`);
    assert.deepEqual(Array.from(r.value, (i) => paths[i]), sortedUnique(paths));
  });

  it('issue 18: no build step reads more than a few thousand paths (sort, sizes, fill are all sliced)', () => {
    // Structural, not a clock: a listing that counts its element reads shows how much work one
    // step of the build does. 60,000 unsorted paths; a pass over all of them in one step (as the
    // size sum was before) would read 60,000 in a step. Duplicates exercise the de-duplication pass.
    const plain = Array.from({ length: 60000 }, (_, i) => `d${(i * 7919) % 211}/S${i % 17}/f${(i * 104729) % 59999}.ts`);
    let reads = 0;
    const counting = new Proxy(plain, {
      get(target, key, receiver) {
        if (typeof key === 'string' && key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const it = PathSnapshot.buildSteps(counting);
    let most = 0;
    let steps = 0;
    let r;
    do {
      reads = 0;
      r = it.next();
      steps++;
      most = Math.max(most, reads);
    } while (!r.done);
    assert.ok(most <= 20000, `a step read ${most} paths`);
    assert.ok(steps >= 60000 / 2048, `only ${steps} steps`);
    assert.deepEqual(r.value.allPaths(), sortedUnique(plain));
  });

  it('issue 18: a fill step stops at its time budget, so a fill V8 has not optimized yet is cut finer', () => {
    // A clock that moves 1 ms whenever it is read: every fill step runs out of time after two
    // chunks of 64 paths instead of filling 2,048.
    const paths = Array.from({ length: 20000 }, (_, i) => `d${i % 97}/f${i}.ts`);
    let t = 0;
    const count = (now?: () => number) => {
      const it = PathSnapshot.buildSteps(paths, 2048, now);
      let steps = 0;
      let r;
      do {
        r = it.next();
        steps++;
      } while (!r.done);
      return { steps, snap: r.value };
    };
    const fast = count(() => 0);
    const slow = count(() => t++);
    assert.ok(slow.steps - fast.steps >= 20000 / 128 - 20000 / 2048 - 2, `${slow.steps} steps against ${fast.steps}`);
    assert.deepEqual(slow.snap.allPaths(), fast.snap.allPaths());
    assert.deepEqual([...slow.snap.mask], [...fast.snap.mask]);
  });

  it('issue 18: an already sorted listing (git ls-files) is taken as it is', () => {
    const paths = sortedUnique(Array.from({ length: 5000 }, (_, i) => `a/${i}.c`));
    const it = sortedUniqueSteps(paths);
    let r = it.next();
    while (!r.done) r = it.next();
    assert.deepEqual(Array.from(r.value), paths.map((_, i) => i));
  });
});
