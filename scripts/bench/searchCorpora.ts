// The @-search benchmark's corpora (issue 18): the path lists of scripts/bench/data, their union
// (linux/… + biome/…, ~115k paths) and the chromium-sized workspace (four copies of the union under
// distinct roots, ~460k paths). Shared by the benchmark and its cold-start child process.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

/** Every `paths-NAME.txt[.br]` of `dataDir`, by NAME in file order. */
export function readPathLists(dataDir: string): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  for (const file of readdirSync(dataDir).filter((f) => /^paths-.*\.txt(\.br)?$/.test(f)).sort()) {
    const name = file.replace(/^paths-/, '').replace(/\.txt(\.br)?$/, '');
    const bytes = readFileSync(join(dataDir, file));
    const text = (file.endsWith('.br') ? brotliDecompressSync(bytes) : bytes).toString('utf8');
    lists.set(name, text.split('\n').filter(Boolean));
  }
  return lists;
}

// Flat strings, as a listing read from git or disk gives (template literals make cons-strings,
// whose flattening during the build would be counted as index memory): hence the JSON round trip.
const flat = (paths: string[]): string[] => JSON.parse(JSON.stringify(paths));

/** linux/… + biome/…, when both lists are there. */
export function unionOf(lists: Map<string, string[]>): string[] | undefined {
  const linux = [...lists.entries()].find(([n]) => n.startsWith('linux'))?.[1];
  const biome = lists.get('biome');
  return linux && biome ? flat([...linux.map((p) => `linux/${p}`), ...biome.map((p) => `biome/${p}`)]) : undefined;
}

/** Four copies of the union under distinct roots (copy1/ … copy4/). */
export function chromiumSized(union: readonly string[]): string[] {
  return flat([1, 2, 3, 4].flatMap((k) => union.map((p) => `copy${k}/${p}`)));
}
