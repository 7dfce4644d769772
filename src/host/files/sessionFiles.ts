// One session's view of the host's file store: the ContextFileSource its adapter reads through
// (contextFileSource.ts) and the SessionFilePort the engine uses for §4.5.1 frames — agents'
// files stored under host-generated ids and described as `direction: "download"` with their
// SHA-256, and masters' `direction: "upload"` announcements checked against what was (or will
// be) PUT.
import { canonicalTransferId, filePath } from '../../remote/controlPlane';
import type { FileTransferPayload, OutgoingFile, SessionFilePort } from '../../session/contextFiles';
import { FileRefusal, fileNameProblem } from '../../remote/fileApi';
import { HostContextFiles } from './contextFileSource';
import type { FileStore } from './fileStore';

export interface SessionFiles {
  contextFiles: HostContextFiles;
  files: SessionFilePort;
}

export function sessionFiles(o: { session_id: string; store: FileStore; workspaceRoots: () => readonly string[]; ownHostNames?: () => ReadonlySet<string> }): SessionFiles {
  const { session_id, store } = o;
  return {
    contextFiles: new HostContextFiles(o),
    files: {
      async store(file: OutgoingFile): Promise<FileTransferPayload> {
        let info;
        try {
          info = await store.store({ session_id, file_name: file.file_name, mime_type: file.mime_type, bytes: file.bytes });
        } catch (e) {
          throw e instanceof FileRefusal ? new Error(`the file ${file.file_name} was not stored: ${e.message}`) : e;
        }
        return {
          transfer_id: info.transfer_id,
          direction: 'download',
          file_url: filePath(info.transfer_id),
          file_name: info.file_name,
          mime_type: info.mime_type,
          size_bytes: info.size_bytes,
          checksum: info.sha256,
          ...(file.context ? { context: file.context } : {}),
        };
      },
      announced(p: FileTransferPayload): string | undefined {
        const id = canonicalTransferId(p.transfer_id);
        if (!id) return `transfer_id ${JSON.stringify(p.transfer_id.slice(0, 80))} is not a UUID v4 (§4.5.1)`;
        const checksum = p.checksum?.toLowerCase();
        if (checksum !== undefined && !/^[0-9a-f]{64}$/.test(checksum)) return 'checksum must be the SHA-256 of the file, 64 hex digits (§4.5.1)';
        // A master's upload is stored here, so its announcement points here: another URL
        // (`http://evil.example/…`, `file:///etc/passwd`) would be shown to every other master as a
        // file a master uploaded — a link no check of ours stands behind.
        if (p.file_url.toLowerCase() !== filePath(id)) return `file_url must be this host's ${filePath(id)} (PUT the file there, then announce it; §4.5.1), not ${JSON.stringify(p.file_url.slice(0, 200))}`;
        // Shown to every master and saved by `rawp attach`: the rules of a name given with the PUT.
        const nameProblem = fileNameProblem(p.file_name);
        if (nameProblem) return nameProblem;
        const stored = store.get(id);
        if (!stored) {
          // Announced first, uploaded next: the PUT must then match this.
          store.announce(id, { session_id, file_name: p.file_name, mime_type: p.mime_type, size_bytes: p.size_bytes, ...(checksum ? { checksum } : {}) });
          return undefined;
        }
        if (stored.session_id !== session_id) return `no file ${id} in this session`;
        if (checksum !== undefined && checksum !== stored.sha256) return `checksum ${checksum} does not match the uploaded file's SHA-256 ${stored.sha256}`;
        if (p.size_bytes !== stored.size_bytes) return `size_bytes ${p.size_bytes} does not match the uploaded file's ${stored.size_bytes} bytes`;
        if (p.mime_type.toLowerCase() !== stored.mime_type) return `mime_type ${p.mime_type} does not match the uploaded file's ${stored.mime_type}`;
        // An upload without a name is stored under its id; one with a name keeps it (the download's name).
        if (stored.file_name !== id && p.file_name !== stored.file_name) return `file_name ${JSON.stringify(p.file_name)} does not match the uploaded file's ${JSON.stringify(stored.file_name)}`;
        return undefined;
      },
    },
  };
}
