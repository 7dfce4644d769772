// The user's prompt in the transcript.
import type { PromptBlock } from '../../../src/protocol/transcript';
import { decodePrompt, isFolderRef } from '../../../src/protocol/fileReference';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { useStore } from '../state/useStore';
import { t } from '../i18n';
import { visibleName } from '../../../src/protocol/visibleName';

/** The user's prompt (ours or another master's, §2.4), with file tokens shown as chips that open
 *  their file (a button: click, Enter or Space; issue 15 Why 8). */
export function PromptView({ block }: { block: PromptBlock }) {
  const store = useStore();
  const decoded = decodePrompt(block.prompt.prompt_text, block.prompt.file_references);
  return (
    <div class="block prompt-block">
      <span class="codicon codicon-account" aria-hidden="true" />
      <div class="prompt-text">
        {decoded.segments.map((s, i) => {
          if (s.kind === 'text') return <span key={i}>{s.text}</span>;
          const path = s.reference.workspace_relative_path;
          const folder = isFolderRef({ path, mime_type: s.reference.mime_type });
          return (
            // The reference's own path, its disguising characters shown (visibleName.ts); the token's
            // display text has `>` replaced (the token's end), so it is not what the file is called.
            <button key={i} type="button" class="chip" title={visibleName(path)} onClick={() => store.transport.send(webviewMessage('file.open', { path }))}>
              <span class={`codicon codicon-${folder ? 'folder' : 'file'}`} aria-hidden="true" />
              {visibleName(path)}
            </button>
          );
        })}
        {(block.prompt.context_files?.length ?? 0) > 0 && (
          // §6.1.1: what rode on the prompt, by name (decision 316).
          <ul class="attachments prompt-attachments" aria-label={t('attach.list')}>
            {block.prompt.context_files!.map((f, i) => (
              <li key={i} class="attachment" title={f.mime_type ? `${f.file_name} (${f.mime_type})` : f.file_name}>
                <span class={`codicon codicon-${f.mime_type?.startsWith('image/') ? 'file-media' : 'file'}`} aria-hidden="true" />
                <span class="attachment-name">{f.file_name}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
