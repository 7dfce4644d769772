// Realistic @-picker queries derived from real paths (see scripts/bench/search.ts for the kinds).
import { mulberry32 } from '../../src/workspace/seededRandom';

export type Kind = 'prefix' | 'initials' | 'abbrev';
export interface Query {
  kind: Kind;
  text: string;
  target: string;
}

const stemOf = (name: string) => (name.lastIndexOf('.') > 0 ? name.slice(0, name.lastIndexOf('.')) : name);
const words = (s: string) =>
  s
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^a-zA-Z0-9]+|(?<=[a-zA-Z])(?=[0-9])/)
    .filter(Boolean);
const skeleton = (w: string) => (w[0] + w.slice(1).replace(/[aeiou_\-.\d]/gi, '')).toLowerCase().slice(0, 3);

export function deriveQueries(paths: readonly string[], seed: number, perKind: number): Query[] {
  const rnd = mulberry32(seed);
  const nameCount = new Map<string, number>();
  for (const p of paths) {
    const n = p.slice(p.lastIndexOf('/') + 1).toLowerCase();
    nameCount.set(n, (nameCount.get(n) ?? 0) + 1);
  }
  const out: Query[] = [];
  const pick = () => paths[Math.floor(rnd() * paths.length)];
  const want: Record<Kind, number> = { prefix: 0, initials: 0, abbrev: 0 };
  for (let guard = 0; guard < 100_000 && out.length < perKind * 3; guard++) {
    const target = pick();
    const parts = target.split('/');
    const name = parts[parts.length - 1];
    const dir = parts.length > 1 ? parts[parts.length - 2] : '';
    const stem = stemOf(name);
    if (stem.length < 3 || !dir) continue;
    const kind: Kind = want.prefix <= want.initials && want.prefix <= want.abbrev ? 'prefix' : want.initials <= want.abbrev ? 'initials' : 'abbrev';
    let text = '';
    if (kind === 'prefix') {
      if (nameCount.get(name.toLowerCase()) !== 1) continue;
      text = stem.slice(0, 4 + Math.floor(rnd() * 5)).toLowerCase();
    } else if (kind === 'initials') {
      text = [...words(dir), ...words(stem)].map((w) => w[0].toLowerCase()).join('');
      if (text.length < 3) continue;
    } else {
      text = skeleton(dir) + skeleton(stem);
      if (text.length < 5) continue;
    }
    want[kind]++;
    out.push({ kind, text, target });
  }
  return out;
}

