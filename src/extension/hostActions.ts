// What the chat controller asks of the editor (open a file, a diff, the clipboard, the rules…):
// passed in, so the controller stays vscode-free and runs in plain Node tests.
import type { PermissionRuleView } from '../protocol/webviewMessages';

export interface HostActions {
  openFile(path: string, line?: number): Promise<void>;
  openDiff(session_id: string, invocation_id: string, file_path?: string): Promise<void>;
  copyAttachUrl(session_id: string): Promise<void>;
  writeClipboard(text: string): Promise<void>;
  permissionRules(): PermissionRuleView[];
  revokeRule(id: string): boolean;
  enterSends(): boolean;
  /** Log `agent_id` in (decision 381); absent where no editor runs (tests). */
  login?(agent_id: string, via: 'terminal' | 'api_key'): Promise<void>;
  /** Issue 17: the multi-file diff of a checkpoint (or one file of it); absent where no editor runs. */
  reviewCheckpoint?(session_id: string, checkpoint_id: string, path?: string): Promise<void>;
  /** The workspace folders, for workspace-relative paths in the view. */
  workspaceRoots?(): string[];
}
