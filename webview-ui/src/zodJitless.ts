// Imported first by main.tsx: zod decides per schema, when the schema is created, whether to
// compile a fast parser with `new Function`. Under a strict CSP (no 'unsafe-eval') that probe is a
// CSP violation, so jitless mode must be on before any schema module is evaluated.
import { z } from 'zod';

z.config({ jitless: true });
