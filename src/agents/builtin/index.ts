export { BuiltinAgent, builtinCommands, resolveFileTokens, type BuiltinAgentOptions } from './agent';
export { parseRequests, GRAMMAR_HELP, CONNECT_HELP, type BuiltinRequest } from './grammar';
