// The @ file and / command picker above the prompt box: its status line and its listbox of
// options. The focus stays in the prompt box, which is the combobox controlling this list
// (composerRole.ts, decision 693); this file only draws.
import type { ComponentChildren } from 'preact';
import { isFolderRef } from '../../../src/protocol/fileReference';
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { t } from '../i18n';
import { commandDescription } from '../i18n/hostWords';
import { argumentHint, type matchingCommands } from './commandRows';
import { PathLabel, PickerOption } from './pickerRows';
import { hasUnloaded, UnloadedFiles, UnloadedRow, useUnloadedOpen, type Unloaded } from './unloadedCommands';

type Candidate = PayloadOf<'session.file.candidates'>['candidates'][number];

export interface ComposerPickerProps {
  kind: 'file' | 'command';
  listId: string;
  active: number;
  files: Candidate[];
  commands: ReturnType<typeof matchingCommands>;
  /** Command files that did not load: a last row says so, whatever is typed (decision 721). */
  unloaded?: Unloaded;
  /** What the picker is doing (searching, no match, more than shown). */
  status: string;
  /** The status is for screen readers only (the list says it all on screen). */
  statusHidden: boolean;
  hiddenOffer: ComponentChildren;
  onChoose: (index: number) => void;
  focusEditor: () => void;
}

export function ComposerPicker(p: ComposerPickerProps) {
  const unloaded = p.kind === 'command' && hasUnloaded(p.unloaded) ? p.unloaded : undefined;
  const items = p.kind === 'file' ? p.files.length : p.commands.length + (unloaded ? 1 : 0);
  const rowId = `${p.listId}-${p.commands.length}`;
  const why = useUnloadedOpen(unloaded !== undefined && p.active === p.commands.length);
  return (
    <div class="picker-frame">
      {/* What the picker is doing, told to screen readers too (WCAG 4.1.3): outside the listbox, which holds only options. */}
      <div class={`picker-status muted${p.statusHidden ? ' sr-only' : ''}`} role="status">
        {p.status}
      </div>
      {p.hiddenOffer}
      {items > 0 && (
        // Focusable, as a scrolling region must be (axe scrollable-region-focusable), but the focus
        // belongs to the editor, whose aria-activedescendant names the active option: sent back.
        <div class="picker" id={p.listId} role="listbox" tabIndex={0} onFocus={p.focusEditor} aria-label={p.kind === 'file' ? t('composer.files') : t('composer.commands')}>
          {p.kind === 'file' &&
            p.files.map((c, i) => (
              <PickerOption key={c.path} id={`${p.listId}-${i}`} active={i === p.active} onChoose={() => p.onChoose(i)}>
                <span class={`codicon codicon-${isFolderRef(c) ? 'folder' : 'file'}`} aria-hidden="true" />
                <span class="picker-path">
                  <PathLabel path={c.path} ranges={c.match_ranges} />
                </span>
              </PickerOption>
            ))}
          {p.kind === 'command' &&
            p.commands.map((c, i) => (
              <PickerOption key={c.name} id={`${p.listId}-${i}`} active={i === p.active} onChoose={() => p.onChoose(i)}>
                <span class="command-name">/{c.name}</span>
                {argumentHint(c) && <span class="command-args">{argumentHint(c)}</span>}
                <span class="command-description muted">{commandDescription(c)}</span>
              </PickerOption>
            ))}
          {unloaded && <UnloadedRow id={rowId} active={p.active === p.commands.length} open={why.open} onToggle={why.toggle} unloaded={unloaded} />}
        </div>
      )}
      {unloaded && <UnloadedFiles id={`${rowId}-why`} open={why.open} unloaded={unloaded} focusEditor={p.focusEditor} />}
    </div>
  );
}
