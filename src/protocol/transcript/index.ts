// The transcript reducer: frames -> the view model the webview, the terminal master and the tests
// all read. Pure: no I/O.
export * from './types';
export { TodoItem as TodoItemSchema, extractTodos } from './todos';
export { createTranscript, currentTurn, type Transcript, type TranscriptOptions, type TranscriptStats, type Container, type Root } from './state';
export { applyFrame, applyFrames, applyParsed } from './reduce';
export { finalize, unfinalize, CONNECTION_LOST, type FinalizeOptions } from './finalize';
export { streamText } from './read';
