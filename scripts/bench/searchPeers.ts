// The peers of the @-search benchmark (issue 18 item 1), each configured for file paths the way
// its documentation recommends, all answering "the top 20 paths for this query":
//  - fuzzysort 4: `fuzzysort.snapshot(paths)` once (its README: prepare targets ahead), then
//    `go(q, targets, { threshold: 0, limit: 20 })`.
//  - fzf-for-js (`fzf`, fzf's v2 algorithm, the library default): `forward: false`, which its
//    docs name for file paths (prefer matching in the file name over the directories), the
//    `byLengthAsc` tiebreaker (fzf's own default tiebreak is length), `limit: 20`.
//  - uFuzzy: `search(haystack, needle, 0, 1e3)` (its integrated filter → info → sort, ranking
//    only when ≤ 1,000 items match, as the README's example gates it); `intraIns: Infinity` with
//    `intraChars: '.'` (the README's "fuzzier" knobs, opened fully: a path query is a
//    subsequence that crosses `/`, `_` and `.`; with the default `intraIns: 0` no initials or
//    abbreviation query can match). Above 1,000 matches uFuzzy returns them unranked, in
//    haystack order, which is what a user of it would see.
import uFuzzy from '@leeoniya/ufuzzy';
import { Fzf, byLengthAsc } from 'fzf';
import fuzzysort from 'fuzzysort';

export type PeerName = 'fuzzysort' | 'fzf' | 'ufuzzy';
/** Builds the peer's index over `paths`; the returned function answers one keystroke. */
export type PeerBuild = (paths: string[]) => (query: string) => string[];

const LIMIT = 20;

export const peers: Record<PeerName, PeerBuild> = {
  fuzzysort: (paths) => {
    const targets = fuzzysort.snapshot(paths);
    return (q) => Array.from(fuzzysort.go(q, targets, { threshold: 0, limit: LIMIT }), (r) => r.target);
  },
  fzf: (paths) => {
    const fzf = new Fzf(paths, { limit: LIMIT, forward: false, tiebreakers: [byLengthAsc] });
    return (q) => fzf.find(q).map((e) => e.item);
  },
  ufuzzy: (paths) => {
    const uf = new uFuzzy({ intraIns: Infinity, intraChars: '.' });
    return (q) => {
      const [idxs, info, order] = uf.search(paths, q, 0, 1e3);
      if (info && order) return order.slice(0, LIMIT).map((i) => paths[info.idx[i]]);
      return (idxs ?? []).slice(0, LIMIT).map((i) => paths[i]);
    };
  },
};
