// The process contract of §17.2 and §18 in one place, for every process-based adapter.
export { AgentProcess, killGroup, type AgentProcessSpec } from './agentProcess';
export { BoundedText } from './boundedText';
export { childEnv, rawpEnv, type RawpEnvInput } from './env';
export { mapExit, normalizeExitCode, type ExitInfo, type ExitMapping, type ExitMappingInput } from './exitMapping';
export { AGENT_LINE_MAX_DEPTH, JsonLineReader, type JsonLineHandlers } from './jsonLines';
export { expandResumeFlag } from './resumeFlag';
export { PROCESS_TAG_VAR, killTagged, taggedPids } from './taggedProcesses';
export { SingleTurnRunner, type SingleTurnSpec, type SingleTurnResult } from './singleTurn';
export { WarningBudget, WARNINGS_PER_KIND, lineReasonKind } from './warningBudget';
