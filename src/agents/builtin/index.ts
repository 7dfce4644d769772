export { BuiltinAgent, BUILTIN_COMMANDS, resolveFileTokens, type BuiltinAgentOptions } from './agent';
export { parseRequests, GRAMMAR_HELP, CONNECT_HELP, type BuiltinRequest } from './grammar';
