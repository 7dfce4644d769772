// A small seeded pseudo-random sequence (mulberry32), for generated data that must be the same on
// every run: the scan workers' warm-up workspace (scanWarmUp.ts), the search benchmark's queries,
// the heavy webview session's payloads and the protocol fuzz tests' cases.

/** A deterministic sequence of numbers in [0, 1) from `seed`. */
export function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
