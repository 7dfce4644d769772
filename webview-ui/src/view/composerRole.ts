// The prompt box's role (decision 693). While the @ or / picker is open it is an ARIA 1.2
// combobox: expanded while its list shows options, controlling that list, the highlighted option its
// active descendant, so a screen reader says "expanded" and reads the option as the arrows move.
// Closed, it is the multi-line textbox it is for writing (a combobox cannot say multi-line, and
// Enter there is a line break or a send, not a choice). The placeholder is a textbox's only:
// ARIA gives a combobox no aria-placeholder (axe: aria-allowed-attr), and an open picker means text.

export interface EditorRole {
  role: 'textbox' | 'combobox';
  'aria-multiline'?: 'true';
  'aria-placeholder'?: string;
  'aria-autocomplete': 'list';
  'aria-haspopup'?: 'listbox';
  'aria-expanded'?: 'true' | 'false';
  'aria-controls'?: string;
  'aria-activedescendant'?: string;
}

/** `listId`: the listbox on screen (undefined while it has no options); `activeId`: its highlighted option. */
export function editorRole(pickerOpen: boolean, listId: string | undefined, activeId: string | undefined, placeholder: string): EditorRole {
  if (!pickerOpen) return { role: 'textbox', 'aria-multiline': 'true', 'aria-autocomplete': 'list', 'aria-placeholder': placeholder };
  return {
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-haspopup': 'listbox',
    'aria-expanded': listId ? 'true' : 'false',
    ...(listId ? { 'aria-controls': listId } : {}),
    ...(listId && activeId ? { 'aria-activedescendant': activeId } : {}),
  };
}
