// The port through which adapters read the files a prompt carries (§6.1.1 `context_files`) and
// the `binary_ref` results of tools (§5.3.1 / §4.5.1). It lives in the session layer so adapters
// (src/agents) can use it without knowing where files come from; the host implements it
// (src/host/files: its /v1/files store, `file:` inside the workspace, bounded `data:` URLs).
// Pure: no Node built-ins.
import type { PayloadOf } from '../protocol/frameTypes';

/** A context file, read: its bytes and what we know about them. */
export interface ResolvedContextFile {
  bytes: Uint8Array;
  /** IANA media type: the stored/announced one, else the one guessed from name and bytes. */
  mimeType: string;
  /** File name to show the agent (the prompt's `file_name`, else the URL's last segment). */
  name: string;
  /** Lower-case hex SHA-256 of `bytes`. */
  sha256: string;
}

/** Why a context file could not be read; every refusal says which. */
export type ContextFileErrorCode =
  /** Not a URL, or a URL we do not take (http(s) elsewhere, ftp:, …): nothing is fetched. */
  | 'unsupported_url'
  /** A `file:` URL outside the workspace (or through a symlink leading out of it). */
  | 'outside_workspace'
  /** No such file (an unknown transfer id, a deleted session's file, a missing path). */
  | 'not_found'
  /** Larger than the host's limit (`rawp.files.maxBytes`, `rawp serve --max-file-bytes`). */
  | 'too_large'
  /** The URL is well-formed but its content is not (bad base64 in `data:`, …). */
  | 'invalid'
  /** The bytes are not what was announced (SHA-256 mismatch). */
  | 'checksum_mismatch'
  /** The read failed (I/O error); `message` says how. */
  | 'unreadable';

export class ContextFileError extends Error {
  override readonly name = 'ContextFileError';
  constructor(
    readonly code: ContextFileErrorCode,
    message: string,
    /** The URL as given (a `data:` URL cut short, so errors stay small). */
    readonly fileUrl: string,
  ) {
    super(message);
  }
}

export function isContextFileError(e: unknown): e is ContextFileError {
  return e instanceof ContextFileError;
}

/** What the prompt said about the file, used as hints (never trusted over the bytes' checksum). */
export interface ContextFileHints {
  file_name?: string;
  mime_type?: string;
  /** Expected lower-case hex SHA-256 (e.g. an `agent.file.transfer` frame's `checksum`). */
  sha256?: string;
}

export interface ContextFileSource {
  /**
   * Read one file by URL. Rejects with a ContextFileError (never anything else for bad input).
   * Bound to one session: a host URL of another session's file is `not_found`.
   */
  resolve(fileUrl: string, hints?: ContextFileHints, signal?: AbortSignal): Promise<ResolvedContextFile>;
}

/** A source that refuses everything: for hosts without a file store. */
export const noContextFiles: ContextFileSource = {
  resolve: (fileUrl) => Promise.reject(new ContextFileError('unsupported_url', 'this host does not serve context files', shortUrl(fileUrl))),
};

/** A URL cut to a size fit for a log or error message (a data: URL may be megabytes). */
export function shortUrl(url: string, max = 120): string {
  return url.length <= max ? url : `${url.slice(0, max)}…`;
}

/** A file an agent or tool made, to be offered to the masters (§4.5.1 direction `download`). */
export interface OutgoingFile {
  bytes: Uint8Array;
  file_name: string;
  mime_type: string;
  context?: { workspace_relative_path?: string; related_tool_invocation_id?: string };
}

export type FileTransferPayload = PayloadOf<'agent.file.transfer'>;

/**
 * The host's side of §4.5.1 for one session: store an agent's file and describe it, and check
 * what a master announces. The engine emits the frame (so it carries the turn's envelope).
 */
export interface SessionFilePort {
  /** Store the bytes; resolves with the `agent.file.transfer` payload (direction `download`, checksum set). */
  store(file: OutgoingFile): Promise<FileTransferPayload>;
  /**
   * A master's `agent.file.transfer` (direction `upload`): undefined when it is fine (remembered
   * for the PUT to come, or matching what was PUT), else why it is refused.
   */
  announced(payload: FileTransferPayload): string | undefined;
}
