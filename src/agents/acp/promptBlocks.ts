// §16.3 for ACP: the prompt as content blocks. Attachments go first (acpAttachmentBlocks); the
// path of each referenced file stays readable in the text and the file goes along as a
// `resource_link` block (every ACP agent must accept those); the agent reads it itself.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { AgentHost, AgentPrompt } from '../../session/agentAdapter';
import { contextFilesOf } from '../attachments';
import { convertPrompt } from '../promptText';
import { acpAttachmentBlocks } from './attachments';

export async function promptBlocks(prompt: AgentPrompt, host: AgentHost): Promise<ContentBlock[]> {
  const files = await contextFilesOf(prompt, host);
  const attached = acpAttachmentBlocks(files.map((file, i) => ({ file, file_url: prompt.context_files[i].file_url })));
  if (!prompt.text.includes('<@file:')) return [...attached, { type: 'text', text: prompt.text }];
  const converted = await convertPrompt(prompt, host, { kind: 'separate', mention: (p) => p });
  return [...attached, { type: 'text', text: converted.text }, ...converted.files.map((f) => ({ type: 'resource_link' as const, uri: pathToFileURL(f.absolute).href, name: basename(f.path) }))];
}
