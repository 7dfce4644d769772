// The composer: a multi-line contenteditable where Enter sends, Shift+Enter breaks the line, ↑
// recalls earlier prompts, Esc cancels the running turn (control.prompt.cancel, §6.1.2) — or, while
// a question waits, goes to the question (decision 605); "@" opens the file picker (debounced
// control.file.search, §16.1, only when the peer announced file_search_fuzzy) and inserts a chip
// that becomes a <@file:…> token (§16.2, typed "<@" is escaped by the encoder); "/" at the start
// opens the command list of agent.commands.publish.
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { encodePrompt, isFolderRef, type PromptPart } from '../../../src/protocol/fileReference';
import { spacedNameOn, spacedRow, spaceVerdict, undecidedFrom } from './spacedQuery';
import { focusHiddenFilesOffer, HiddenFilesOffer } from './hiddenFilesOffer';
import { fileStatus, PAGE_ROWS, useLongWait } from './pickerRows';
import { ComposerPicker } from './composerPicker';
import { editorRole } from './composerRole';
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { useStoreSelect } from '../state/useStore';
import { currentTurn, pendingInteractions } from '../../../src/protocol/transcript';
import { t } from '../i18n';
import type { ChatStore } from '../state/store';
import { atQuery, caretAtStart, insertChip, readParts, throughQuery, writeParts } from './editor';
import { AttachmentChips, useAttachments } from './attachments';
import { t as tr } from '../i18n';
import { FindContext } from './findState';
import { focusWaitingQuestion, waitingQuestion } from './waitingQuestion';
import { stopTurn } from './stopTurn';
import { useKeepComposerFocus } from './keepComposerFocus';
import { matchingCommands, typedWhole } from './commandRows';
import { hasUnloaded } from './unloadedCommands';
import { loadRecall, saveRecall } from './promptRecall';
import { useDraft } from './composerDraft';

export { argumentHint } from './commandRows';

type Candidate = PayloadOf<'session.file.candidates'>['candidates'][number];

const SEARCH_DEBOUNCE_MS = 120;

/** `hidden`: this @ reference also searches what ignore files and excludes hide (decision 636). */
type Picker = { kind: 'file'; query: string; hidden?: boolean } | { kind: 'command'; query: string } | undefined;


/** What the composer reads of the transcript (whether a turn is open, the slash commands, whether
 *  a question waits) and the rest. */
const composerInputs = (s: ChatStore) => [s.metaVersion, s.transcript, currentTurn(s.transcript)?.turnId, s.transcript.commands, s.transcript.unloadedCommands, pendingInteractions(s.transcript).length];

export function Composer() {
  const store = useStoreSelect(composerInputs);
  const editor = useRef<HTMLDivElement>(null);
  const [picker, setPicker] = useState<Picker>(undefined);
  const [active, setActive] = useState(0);
  const [empty, setEmpty] = useState(true);
  const recall = useRef<PromptPart[][]>(loadRecall(store));
  const recallAt = useRef(-1);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const tx = store.transcript;
  const turnOpen = store.openTurnId() !== undefined;
  const canSearch = store.may('control.file.search');
  // §6.1.1: files pasted, dropped or picked ride on the prompt as context_files (attachments.tsx).
  const attachments = useAttachments(store);
  const filePicker = useRef<HTMLInputElement>(null);
  const find = useContext(FindContext);
  const keepFocus = useKeepComposerFocus(editor);
  // The unsent prompt survives the view being rebuilt; sending (which empties the box) drops it.
  useDraft(store, editor, setEmpty);

  const files: Candidate[] = picker?.kind === 'file' && store.candidates ? store.candidates.candidates : [];
  const paths = files.map((c) => c.path);
  const commands = picker?.kind === 'command' ? matchingCommands(tx.commands, picker.query) : [];
  // The last row says which command files did not load (decision 721); it chooses nothing.
  const items = picker?.kind === 'file' ? files.length : commands.length + (picker && hasUnloaded(tx.unloadedCommands) ? 1 : 0);
  const searching = picker?.kind === 'file' && store.candidates === undefined;
  const searchingLong = useLongWait(searching);

  useEffect(() => setActive(0), [picker?.kind, picker?.query, store.candidates?.queryId]);
  // Tab pressed before the first suggestions of this query arrived: take the first one when they
  // do (issue 15 Why 8), instead of letting Tab move the focus away from a half-typed reference.
  const acceptWhenReady = useRef<string | undefined>(undefined);
  /** Was it the send key that waited (a query that ends up matching no name is then sent as text)? */
  const sendWhenReady = useRef(false);
  useEffect(() => {
    if (picker?.kind !== 'file' || !answered(picker.query)) return;
    const waited = acceptWhenReady.current === picker.query;
    // A space kept while the list could not tell (spacedQuery.ts) is judged by this answer: the
    // reference goes on, or ends at it (the picker closes, the text stays), or waits for more.
    const space = spaceVerdict(picker.query, paths, store.candidates?.truncated === true, waited);
    if (space === 'waits') return;
    if (space === 'ends') {
      acceptWhenReady.current = undefined;
      closePicker();
      if (waited && sendWhenReady.current) send();
      return;
    }
    if (!waited) return;
    acceptWhenReady.current = undefined;
    // No match: nothing is chosen and nothing sent; the picker says so. A spaced query: the first
    // row that holds it (such a name need not lead the list).
    if (files.length > 0) choose(Math.max(0, spacedRow(picker.query, paths, 0)));
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  // An @ typed before the session could search opens the picker once it can (the trial of 2026-12-05).
  useEffect(() => {
    if (canSearch && !picker && editor.current?.contains(document.activeElement)) onInput();
  }, [canSearch]);

  /** The suggestions on screen are this query's (not an older one's, nor none yet). */
  const answered = (query: string): boolean => store.activeQuery === query && store.candidates !== undefined && store.candidates.queryId === store.activeQueryId;
  // Nothing matched this query: offer to search what ignore files and excludes hide (decision 636).
  const offerHidden = picker?.kind === 'file' && !picker.hidden && files.length === 0 && answered(picker.query);

  const closePicker = () => {
    if (picker?.kind === 'file') store.cancelSearch();
    clearTimeout(timer.current);
    setPicker(undefined);
  };

  // compositionend (which Preact's onCompositionEnd does not reach: no such property on elements)
  // runs the search a composing syllable held back; always with this render's state.
  const afterComposition = useRef<() => void>(() => undefined);
  afterComposition.current = () => onInput();
  useEffect(() => {
    const root = editor.current;
    const listener = () => afterComposition.current();
    root?.addEventListener('compositionend', listener);
    return () => root?.removeEventListener('compositionend', listener);
  }, []);

  const onInput = (e?: Event) => {
    const root = editor.current;
    if (!root) return;
    const parts = readParts(root);
    setEmpty(parts.length === 0);
    recallAt.current = -1;
    // A syllable still being composed (a Hangul IME's "설ㄱ") is no query: the list stays until
    // the composition ends (compositionend runs this again) instead of flashing "No matching files".
    if ((e as InputEvent | undefined)?.isComposing && picker?.kind === 'file') return;
    // A space goes on only while a listed name holds it — or, for now, while the list cannot tell
    // (decision 634); the answer to what is typed then judges.
    const at = atQuery(root, picker?.kind === 'file' ? spacedNameOn(paths, undecidedFrom(picker.query, store.candidates)) : undefined);
    if (at && canSearch) {
      if (picker?.kind !== 'file' || picker.query !== at.query) {
        const hidden = picker?.kind === 'file' && picker.hidden === true;
        setPicker({ kind: 'file', query: at.query, hidden });
        clearTimeout(timer.current);
        timer.current = setTimeout(() => store.searchFiles(at.query, hidden), SEARCH_DEBOUNCE_MS);
      }
      return;
    }
    if (picker?.kind === 'file') closePicker();
    const text = root.textContent ?? '';
    const slash = /^\/(\S*)$/.exec(text);
    if (slash && (tx.commands?.length ?? 0) > 0) setPicker({ kind: 'command', query: slash[1] });
    else if (picker?.kind === 'command') setPicker(undefined);
  };

  const choose = (index: number) => {
    const root = editor.current;
    if (!root || !picker) return;
    if (picker.kind === 'file') {
      const c = files[index];
      // The caret may have moved back inside the reference (←): the whole typed reference is replaced.
      const before = atQuery(root, (query) => picker.query.startsWith(query));
      const at = before && throughQuery(before, picker.query);
      if (!c || !at) return;
      insertChip(root, at, { kind: 'file', path: c.path, display_path: c.path, ...(c.extension ? { extension: c.extension } : {}), ...(isFolderRef(c) && c.mime_type ? { mime_type: c.mime_type } : {}) });
      closePicker();
    } else {
      const c = commands[index];
      if (!c) return;
      writeParts(root, [{ kind: 'text', text: `/${c.name} ` }]);
      root.append(root.ownerDocument.createTextNode(''));
      setPicker(undefined);
    }
    setEmpty(false);
  };

  const send = () => {
    const root = editor.current;
    if (!root) return;
    const parts = readParts(root);
    if (parts.length === 0) return;
    if (attachments.storing) return store.notify('info', tr('attach.wait'));
    // An ended chat takes no prompt (it went nowhere); the text stays, the banner offers to go on.
    if (tx.deleted) return store.notify('info', t('composer.chatEnded'));
    const context_files = attachments.contextFiles();
    const encoded = encodePrompt(parts);
    const first = parts[0];
    const slash = first.kind === 'text' && first.text.startsWith('/');
    const frame = store.sendFrame('control.prompt.request', {
      prompt_text: encoded.prompt_text,
      input_type: slash ? 'slash_command' : 'text',
      ...(encoded.file_references.length > 0 ? { file_references: encoded.file_references } : {}),
      ...(context_files.length > 0 ? { context_files } : {}),
    });
    if (!frame) return;
    attachments.clear();
    recall.current = saveRecall(store, recall.current, parts);
    recallAt.current = -1;
    root.replaceChildren();
    setEmpty(true);
    setPicker(undefined);
  };

  const cancelTurn = () => void stopTurn(store);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.isComposing) return;
    const root = editor.current;
    if (!root) return;
    const sendKey = store.enterSends ? e.key === 'Enter' && !e.shiftKey : e.key === 'Enter' && (e.ctrlKey || e.metaKey);
    if (picker && items > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((active + (e.key === 'ArrowDown' ? 1 : items - 1)) % items);
        return;
      }
      if (e.key === 'PageDown' || e.key === 'PageUp') {
        e.preventDefault();
        // On the "could not be loaded" row they page through its list of files (up off it from its top).
        const why = picker.kind === 'command' && active >= commands.length ? document.getElementById(`${listId}-${active}-why`) : null;
        if (why && (e.key === 'PageDown' || why.scrollTop > 0)) why.scrollBy(0, (e.key === 'PageDown' ? 0.9 : -0.9) * why.clientHeight);
        else setActive(Math.max(0, Math.min(items - 1, active + (e.key === 'PageDown' ? PAGE_ROWS : -PAGE_ROWS))));
        return;
      }
      // Shift+Tab moves the focus back, as everywhere; it never accepts a suggestion.
      if (e.key === 'Enter' || (e.key === 'Tab' && !e.shiftKey)) {
        e.preventDefault();
        // A spaced query takes only a row that holds it, never one that drops the words after the
        // space: with none, it waits for this query's answer, or the reference ended (decision 634).
        const row = picker.kind === 'file' ? spacedRow(picker.query, paths, active) : active < commands.length ? active : -1;
        // The "could not be loaded" row: Tab takes nothing; Enter is as with no row (the text goes as typed).
        if (row < 0 && picker.kind === 'command' && e.key === 'Tab') return;
        if (row < 0 && picker.kind === 'file' && !answered(picker.query)) return void ((acceptWhenReady.current = picker.query), (sendWhenReady.current = sendKey));
        if (row < 0) {
          closePicker();
          if (sendKey) send();
          else if (e.key === 'Enter') document.execCommand('insertLineBreak');
          return;
        }
        // A command typed whole that needs nothing more runs on Enter, as it would with the menu
        // closed: "/help" then Enter asked for a second Enter (decision 610). Tab still completes.
        if (e.key === 'Enter' && !e.shiftKey && store.enterSends && picker.kind === 'command' && typedWhole(commands[active], picker.query)) send();
        else choose(row);
        return;
      }
    }
    // Tab, or the send key, before this query's suggestions arrived: take the first when they do
    // (Enter sent a half-typed reference as text). No match: Tab goes to the hidden-files offer (636).
    if (picker?.kind === 'file' && e.key === 'Tab' && !e.shiftKey && offerHidden && focusHiddenFilesOffer()) {
      e.preventDefault();
      return;
    }
    if (picker?.kind === 'file' && ((e.key === 'Tab' && !e.shiftKey) || (sendKey && !answered(picker.query)))) {
      e.preventDefault();
      acceptWhenReady.current = picker.query;
      sendWhenReady.current = e.key !== 'Tab';
      return;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      if (picker) closePicker();
      else if (!focusWaitingQuestion(store, find)) cancelTurn();
      return;
    }
    if (sendKey) {
      e.preventDefault();
      if (picker?.kind === 'file') closePicker();
      send();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      // Enter-sends is off: a plain line break (the browser's default would wrap lines in <div>s).
      e.preventDefault();
      document.execCommand('insertLineBreak');
      return;
    }
    if (e.key === 'ArrowUp' && !picker && caretAtStart(root) && recall.current.length > 0) {
      const next = Math.min(recallAt.current + 1, recall.current.length - 1);
      if (next !== recallAt.current && (recallAt.current >= 0 || readParts(root).length === 0)) {
        e.preventDefault();
        recallAt.current = next;
        writeParts(root, recall.current[next]);
        setEmpty(false);
      }
      return;
    }
    if (e.key === 'ArrowDown' && !picker && recallAt.current >= 0) {
      e.preventDefault();
      recallAt.current--;
      writeParts(root, recallAt.current >= 0 ? recall.current[recallAt.current] : []);
      setEmpty(recallAt.current < 0);
    }
  };

  const onPaste = (e: ClipboardEvent) => {
    // Only plain text goes in: pasted markup could otherwise forge a chip.
    e.preventDefault();
    const pasted = [...(e.clipboardData?.files ?? [])];
    if (pasted.length > 0) void attachments.add(pasted);
    const text = e.clipboardData?.getData('text/plain') ?? '';
    document.execCommand('insertText', false, text);
  };

  // An ended chat says so before anything is typed; only an error's end offers Continue above it.
  const placeholder = tx.deleted ? t(tx.deleted.reason === 'error' ? 'composer.placeholderEnded' : 'composer.placeholderEndedNew') : canSearch ? t('composer.placeholder') : t('composer.placeholderNoFiles');
  const stopLabel = waitingQuestion(store) ? t('composer.stopLabelAsking') : t('composer.stopLabel');
  const listId = 'composer-picker';
  const activeId = picker && items > 0 ? `${listId}-${active}` : undefined;
  return (
    <div class="composer" onFocusIn={keepFocus.onFocusIn} onFocusOut={keepFocus.onFocusOut}>
      {picker && (
        <ComposerPicker
          kind={picker.kind}
          listId={listId}
          active={active}
          files={files}
          commands={commands}
          unloaded={tx.unloadedCommands}
          status={picker.kind === 'file' ? fileStatus(files.length, searching, store.candidates?.truncated === true, searchingLong, picker.hidden === true) : commands.length === 0 ? t('composer.noCommand') : ''}
          statusHidden={picker.kind === 'file' && files.length > 0 && store.candidates?.truncated !== true}
          hiddenOffer={
            offerHidden && (
              <HiddenFilesOffer
                editor={() => editor.current}
                onSearch={() => {
                  setPicker({ kind: 'file', query: picker.query, hidden: true });
                  store.searchFiles(picker.query, true);
                }}
              />
            )
          }
          onChoose={choose}
          focusEditor={() => editor.current?.focus()}
        />
      )}
      <div
        class="composer-box"
        onDragOver={(e) => {
          if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
        }}
        onDrop={(e) => {
          const dropped = [...(e.dataTransfer?.files ?? [])];
          if (dropped.length === 0) return;
          e.preventDefault();
          void attachments.add(dropped);
        }}
      >
        <AttachmentChips list={attachments.list} onRemove={attachments.remove} focusEditor={() => editor.current?.focus()} />
        <div
          ref={editor}
          class={`editor${empty ? ' empty' : ''}`}
          contentEditable
          {...editorRole(picker !== undefined, items > 0 ? listId : undefined, activeId, placeholder)}
          aria-label={t('composer.label')}
          data-placeholder={placeholder}
          onInput={onInput}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <div class="composer-actions">
          <input
            ref={filePicker}
            type="file"
            multiple
            hidden
            onChange={(e) => {
              const input = e.currentTarget;
              void attachments.add([...(input.files ?? [])]);
              input.value = '';
            }}
          />
          <button type="button" class="button secondary" onClick={() => filePicker.current?.click()} disabled={store.sessionId === undefined} aria-label={tr('attach.button')} title={tr('attach.button')}>
            <span class="codicon codicon-attach" aria-hidden="true" />
          </button>
          {turnOpen ? (
            <button type="button" class="button secondary" onClick={cancelTurn} aria-label={stopLabel} title={stopLabel}>
              <span class="codicon codicon-debug-stop" aria-hidden="true" /> <span class="button-words">{t('composer.stop')}</span>
            </button>
          ) : null}
          <button type="button" class="button" onClick={send} disabled={empty || store.sessionId === undefined || tx.deleted !== undefined} aria-label={store.enterSends ? t('composer.send') : t('composer.sendCtrl')}>
            <span class="codicon codicon-send" aria-hidden="true" />
          </button>
        </div>
      </div>
    </div>
  );
}
