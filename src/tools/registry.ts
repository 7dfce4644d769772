// The tools the built-in agents run, in catalog order.
import { BashTool } from './bash';
import { EditTool } from './editTool';
import { GlobTool } from './glob';
import { GrepTool } from './grep';
import { LSTool } from './ls';
import { MultiEditTool } from './multiEdit';
import { ReadTool } from './read';
import { TaskTool } from './task';
import { TodoReadTool, TodoWriteTool } from './todo';
import type { Tool } from './types';
import { WriteTool } from './write';

export const ALL_TOOLS: readonly Tool[] = [ReadTool, WriteTool, EditTool, MultiEditTool, GlobTool, GrepTool, LSTool, BashTool, TodoReadTool, TodoWriteTool, TaskTool];
