// The transcript reducer: frames -> the view model the webview, the terminal master and the tests
// all read. Pure: no I/O.
//
//   const t = createTranscript({ sessionId });
//   applyParsed(t, parseFrame(text));            // per frame off the wire; never throws
//   render(t.timeline);                          // re-render nodes whose `rev` changed
//   finalize(t, { reason: 'connection_closed' }); // §7.8.1 on close/error or app restart
//   // a later session.history undoes it (§7.8.3) when it may
export * from './types';
export { TodoItem as TodoItemSchema, extractTodos } from './todos';
export { createTranscript, currentTurn, type Transcript, type TranscriptOptions, type TranscriptStats, type Container, type Root } from './state';
export { applyFrame, applyFrames, applyParsed } from './reduce';
export { finalize, unfinalize, CONNECTION_LOST, type FinalizeOptions } from './finalize';
export { streamText, pendingInteractions, findTool, findInteraction, openTools } from './read';
export { toolOutputPlan, streamedText, type ToolOutputPlan } from './toolOutput';
export { PLAN_TOOLS } from './interactions';
export { shownAsBlock } from './read';
export { isCheckpointFrameType } from './checkpoints';
