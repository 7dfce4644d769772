// Imported first by extension.ts, so this runs before the rest of the bundle is evaluated: the
// start of "load + activate", the activation time VS Code's own tooling shows.
import { performance } from 'node:perf_hooks';

export const LOAD_START = performance.now();
