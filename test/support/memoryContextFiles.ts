// A ContextFileSource over files a test puts in memory, under /v1/files/{id} URLs like the host's
// store gives (src/host/files). For tests of what adapters and admission do with attachments; the
// store itself (uploads, limits, checksums) is tested on its own.
import { createHash, randomUUID } from 'node:crypto';
import { ContextFileError, type ContextFileSource, type ResolvedContextFile } from '../../src/session/contextFiles';

export class MemoryContextFiles implements ContextFileSource {
  private readonly files = new Map<string, Omit<ResolvedContextFile, 'name'> & { name: string }>();
  /** Every URL resolved, in order (admission and the adapter each read the file). */
  readonly reads: string[] = [];

  add(name: string, mimeType: string, bytes: Uint8Array | string): string {
    const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
    const url = `/v1/files/${randomUUID()}`;
    this.files.set(url, { name, mimeType, bytes: data, sha256: createHash('sha256').update(data).digest('hex') });
    return url;
  }

  async resolve(fileUrl: string, hints: { file_name?: string } = {}): Promise<ResolvedContextFile> {
    this.reads.push(fileUrl);
    const f = this.files.get(fileUrl);
    if (!f) throw new ContextFileError('not_found', 'no such file', fileUrl);
    return { ...f, name: hints.file_name ?? f.name };
  }
}

/** A 1×1 PNG (a real one: the CLIs and the models' APIs may check its signature). */
export const PNG_1X1 = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));
export const PNG_1X1_BASE64 = Buffer.from(PNG_1X1).toString('base64');
