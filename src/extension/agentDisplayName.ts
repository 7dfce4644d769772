// An agent's name as the editor's own surfaces say it (the status bar, notifications): the built-in
// agent's in the editor's language, as the chat says it ("내장 (오프라인)"; the status bar read
// "Built-in (offline): 준비됨" beside it, the UI trial of 2026-12-06), others as detected, without
// a version ("Claude Code 2.1.3" → "Claude Code").
import type { Words } from './words';

export function agentDisplayName(id: string, detected: readonly { id: string; name: string }[], words: Words): string {
  if (id === 'builtin') return words.t('Built-in (offline)');
  return detected.find((c) => c.id === id)?.name.replace(/\s+\d+\.\d+\.\d+\S*$/, '') ?? id;
}
