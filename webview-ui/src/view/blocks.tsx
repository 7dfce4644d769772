// Views of the transcript's blocks, one per kind (the views live in files of their own). Every
// block view is memoised on (block, rev): the reducer mutates blocks in place and bumps `rev`, so a
// view re-renders only when its block changed.
import { memo } from './memo';
import type { Block } from '../../../src/protocol/transcript';
import { AUTH_REQUIRED } from '../../../src/protocol/agentLogin';
import { InteractionCard } from './interaction';
import { LoginCard } from './loginCard';
import { ParallelView } from './groups';
import { CompactionView, ErrorView, FileTransferView } from './noticeBlocks';
import { PromptView } from './promptBlock';
import { PlanView, TextView, ThinkingView } from './textBlocks';
import { ToolCard } from './toolCard';

export const BlockView = memo(
  function BlockView({ block }: { block: Block; rev: number }) {
    switch (block.kind) {
      case 'text':
        return <TextView block={block} />;
      case 'plan':
        return <PlanView block={block} />;
      case 'thinking':
        return <ThinkingView block={block} />;
      case 'tool':
        return <ToolCard tool={block} />;
      case 'parallel':
        return <ParallelView group={block} />;
      case 'interaction':
        return <InteractionCard block={block} />;
      case 'error':
        return block.error.code === AUTH_REQUIRED ? <LoginCard block={block} /> : <ErrorView block={block} />;
      case 'compaction':
        return <CompactionView block={block} />;
      case 'file_transfer':
        return <FileTransferView block={block} />;
      case 'prompt':
        return <PromptView block={block} />;
    }
  },
  (a, b) => a.block === b.block && a.rev === b.rev,
);
