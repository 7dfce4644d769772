// §4.5.1: where each transfer's file can be loaded from in this view, asked of the transport
// (resolveFile) once per transfer and kept: a row that scrolls out of the virtualized transcript
// and back in shows the same answer without asking again.
import type { Transport } from '../transport/types';

/** A transfer's file as the view can show it. */
export type FileView = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'unavailable' };

export class TransferFiles {
  private readonly known = new Map<string, { view: FileView; promise: Promise<FileView> }>();

  constructor(private readonly transport: Transport) {}

  /** The file of a transfer of `session`, asked once per transfer. Never rejects. */
  load(session: string | undefined, transfer: { transfer_id: string; file_url: string }): Promise<FileView> {
    const known = this.known.get(transfer.transfer_id);
    if (known) return known.promise;
    const resolve = this.transport.resolveFile?.bind(this.transport);
    const entry: { view: FileView; promise: Promise<FileView> } = { view: { state: 'loading' }, promise: Promise.resolve<FileView>({ state: 'unavailable' }) };
    entry.promise = (resolve && session ? resolve(session, transfer).catch(() => undefined) : Promise.resolve(undefined)).then((url) => (entry.view = url ? { state: 'ready', url } : { state: 'unavailable' }));
    this.known.set(transfer.transfer_id, entry);
    return entry.promise;
  }

  /** What `load` has found so far (`loading` until it settles). */
  view(transfer_id: string): FileView {
    return this.known.get(transfer_id)?.view ?? { state: 'loading' };
  }
}
