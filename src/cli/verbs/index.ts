// Every verb of the `rawp` CLI, in the order `rawp --help` lists them.
import type { Verb } from '../verb';
import { validateVerb } from './validate';
import { convertVerb } from './convert';

export const verbs: Verb[] = [validateVerb, convertVerb];
