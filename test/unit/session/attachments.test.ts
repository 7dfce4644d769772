// §6.1.1 context_files: what each adapter declares it takes, and the refusal sentence admission
// sends for the rest (the end-to-end paths run in test/unit/agents/attachments.e2e.test.ts).
import { strict as assert } from 'node:assert';
import { acpAttachments, acpAttachmentBlocks } from '../../../src/agents/acp/attachments';
import { codexArgs } from '../../../src/agents/codex/args';
import { accepts, attachmentRefusal, mimeMatches } from '../../../src/session/attachments';

const file = (name: string, mimeType: string, text = 'x') => ({ name, mimeType, bytes: new TextEncoder().encode(text), sha256: '0'.repeat(64) });

describe('§6.1.1 attachments: declared support and refusals', () => {
  it('§6.1.1 media type patterns: exact, type/* wildcards, parameters ignored, case-insensitive', () => {
    assert.ok(mimeMatches('image/*', 'image/png'));
    assert.ok(mimeMatches('text/*', 'Text/Markdown; charset=utf-8'));
    assert.ok(!mimeMatches('image/png', 'image/jpeg'));
    assert.ok(!mimeMatches('text/*', 'application/json'));
    assert.ok(!accepts(undefined, 'text/plain'), 'an agent that declares nothing takes nothing');
  });

  it('§6.1.1 the refusal names every refused file with its type, the agent, what it takes and why', () => {
    const msg = attachmentRefusal('Codex', { accepts: ['image/png', 'text/*'], refusal: 'Codex takes images and text files' }, [file('a.png', 'image/png'), file('b.pdf', 'application/pdf'), file('c.zip', 'application/zip')]);
    assert.ok(msg);
    assert.match(msg, /^Codex cannot take these attached files b\.pdf \(application\/pdf\), c\.zip \(application\/zip\)/);
    assert.doesNotMatch(msg, /a\.png/, 'an accepted file is not named');
    assert.match(msg, /takes only image\/png, text\/\*/);
    assert.match(msg, /nothing was sent to the agent/);
    assert.equal(attachmentRefusal('Codex', { accepts: ['image/*'] }, [file('a.png', 'image/png')]), undefined);
  });

  it('§6.1.1 ACP: images only with promptCapabilities.image, files only with embeddedContext; the refusal says which is missing', () => {
    const none = acpAttachments({});
    assert.equal(none.accepts.length, 0);
    assert.match(attachmentRefusal('Gemini CLI (ACP)', none, [file('a.png', 'image/png')])!, /no promptCapabilities\.image/);
    const images = acpAttachments({ image: true });
    assert.ok(accepts(images, 'image/webp') && !accepts(images, 'text/plain'));
    assert.match(attachmentRefusal('X', images, [file('n.md', 'text/markdown')])!, /no promptCapabilities\.embeddedContext/);
    const both = acpAttachments({ image: true, embeddedContext: true });
    assert.ok(accepts(both, 'text/plain') && accepts(both, 'application/pdf') && both.refusal === undefined);
  });

  it('§6.1.1 ACP blocks: image data base64, text as a text resource, a PDF as a blob; a data: URL is not repeated as the URI', () => {
    const blocks = acpAttachmentBlocks([
      { file_url: '/v1/files/1', file: file('a.png', 'image/png', 'PNG') },
      { file_url: '/v1/files/2', file: file('n.md', 'text/markdown', '# hi') },
      { file_url: 'data:application/pdf;base64,JVBE', file: file('p.pdf', 'application/pdf', '%PDF') },
    ]);
    assert.deepEqual(blocks[0], { type: 'image', mimeType: 'image/png', data: Buffer.from('PNG').toString('base64') });
    assert.deepEqual(blocks[1], { type: 'resource', resource: { uri: '/v1/files/2', mimeType: 'text/markdown', text: '# hi' } });
    assert.deepEqual(blocks[2], { type: 'resource', resource: { uri: 'attachment:///p.pdf', mimeType: 'application/pdf', blob: Buffer.from('%PDF').toString('base64') } });
  });

  it('§6.1.1 Codex: each image is one --image=FILE right before the stdin prompt "-", after `resume <id>` on later turns', () => {
    assert.deepEqual(codexArgs({ mode: 'default', resumeArgs: [], images: ['/t/a.png', '/t/b.jpg'] }).slice(-3), ['--image=/t/a.png', '--image=/t/b.jpg', '-']);
    assert.deepEqual(codexArgs({ mode: 'default', resumeArgs: ['resume', 'th-1'], images: ['/t/a.png'] }).slice(-4), ['resume', 'th-1', '--image=/t/a.png', '-']);
    assert.ok(!codexArgs({ mode: 'default', resumeArgs: [] }).some((a) => a.startsWith('--image')));
  });
});
