// Every converter of `rawp convert`. A converter module registers itself when imported:
// add one import line here per native format (claude-code, codex, acp, gemini).
import '../claudeCode/convert';
import '../codex/convert';
import '../acp/convert';
import './gemini';

export { getConverter, listConverters, registerConverter, numberedLines, type ConvertOptions, type ConvertResult, type NativeConverter } from './registry';
export { FrameWriter, type SessionOpening } from './frameWriter';
