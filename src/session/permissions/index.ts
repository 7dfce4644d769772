export * from './rules';
export * from './policy';
export * from './broker';
export * from './ruleAllowedCalls';
