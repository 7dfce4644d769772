// Every verb of the `rawp` CLI, in the order `rawp --help` lists them.
import type { Verb } from '../verb';
import { validateVerb } from './validate';
import { convertVerb } from './convert';
import { searchVerb } from './search';
import { serveVerb } from './serve';
import { attachVerb } from './attach';
import { runVerb } from './run';

export const verbs: Verb[] = [validateVerb, convertVerb, searchVerb, serveVerb, attachVerb, runVerb];
