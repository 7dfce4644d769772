// Every converter of `rawp convert`. A converter module registers itself when imported:
// add one import line here per native format (claude-code, codex, acp, gemini).
import '../claudeCode/convert';
import '../codex/convert';
import '../acp/convert';
import './gemini';

export { getConverter, listConverters, registerConverter, numberedLines, type ConvertOptions, type ConvertResult, type NativeConverter, type NumberedLine, type StreamedLines } from './registry';
export { FrameWriter, withFrameSink, type SessionOpening } from './frameWriter';
export { convertStream, InputReadError, type StreamOutput } from './stream';
