// TypeScript types of payload parts that other layers name on their own (catalog entries,
// commands, file references). Inferred from the zod schemas, the single source of each shape,
// here in src/protocol so the layers above need no zod import just to spell a type.
import type { z } from 'zod';
import type * as payloads from './payloads';

export type CatalogTool = z.infer<typeof payloads.CatalogTool>;
export type CatalogDiagnostic = z.infer<typeof payloads.CatalogDiagnostic>;
export type CommandEntry = z.infer<typeof payloads.CommandEntry>;
export type FileReferenceEntry = z.infer<typeof payloads.FileReference>;
export type ContextFile = z.infer<typeof payloads.ContextFile>;
