// Whether a <select> shows its text whole (decision 692): its width beside the width a copy of it
// takes alone in the page, unconstrained. Runs in the page (Playwright's `evaluate`), so it is
// self-contained. `onlyChosen`: the copy keeps only the chosen option (a select is as wide as its
// widest option); `unbounded`: the copy has no max-width either.
export const selectWidths = (sel: Element, o: { onlyChosen: boolean; unbounded: boolean }): { width: number; natural: number } => {
  const alone = sel.cloneNode(true) as HTMLSelectElement;
  alone.removeAttribute('id');
  const chosen = (sel as HTMLSelectElement).value;
  if (o.onlyChosen) for (const option of [...alone.options]) if (option.value !== chosen) option.remove();
  alone.style.position = 'absolute';
  alone.style.width = 'auto';
  if (o.unbounded) alone.style.maxWidth = 'none';
  document.body.append(alone);
  const natural = alone.getBoundingClientRect().width;
  alone.remove();
  return { width: sel.getBoundingClientRect().width, natural };
};
