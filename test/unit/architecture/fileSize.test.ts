// The team's rule "small files with one job" (COMMON standards, decision 450): no TypeScript file
// under src/ or webview-ui/src/ (the chat view is product code too) is longer than MAX_LINES. A
// file that grows past it is split along a real seam — a unit with its own job and a small
// interface to its owner — not cut in halves. The first tests fail naming every file over the
// limit; the last shows the count itself can fail.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const MAX_LINES = 400;
/** A bound on the walk: each tree has a few hundred files; far more means the walk went astray. */
const MAX_FILES = 5_000;

/** Lines of a text: its newlines, plus a last line that has none (`wc -l` would miss that one). */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/** Every .ts/.tsx file below `dir` over `max` lines, as `path: lines`. */
function oversized(dir: string, max: number): string[] {
  const over: string[] = [];
  let seen = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && /\.tsx?$/.test(e.name)) {
        if (++seen > MAX_FILES) throw new Error(`more than ${MAX_FILES} files below ${dir}`);
        const lines = lineCount(readFileSync(p, 'utf8'));
        if (lines > max) over.push(`${relative(dir, p)}: ${lines}`);
      }
    }
  };
  walk(dir);
  return over;
}

describe('architecture: small files with one job (decision 450)', () => {
  for (const tree of ['src', 'webview-ui/src']) {
    it(`no file under ${tree}/ has more than ${MAX_LINES} lines`, () => {
      const over = oversized(join(root, ...tree.split('/')), MAX_LINES);
      assert.deepEqual(over, [], `split these along a real seam (decision 450):\n  ${over.join('\n  ')}`);
    });
  }

  it('the count fires on a file one line over the limit, and not on one at it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rawp-filesize-'));
    try {
      writeFileSync(join(dir, 'at.ts'), 'x\n'.repeat(MAX_LINES));
      writeFileSync(join(dir, 'over.ts'), 'x\n'.repeat(MAX_LINES) + 'y'); // the last line has no newline
      writeFileSync(join(dir, 'prose.md'), 'x\n'.repeat(MAX_LINES * 2));
      assert.deepEqual(oversized(dir, MAX_LINES), [`over.ts: ${MAX_LINES + 1}`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
