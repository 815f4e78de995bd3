import { serveRequests } from '../../common/workers/serve-requests';
import { MarkdownRenderer } from './markdown-renderer';
import type { RenderRequest } from './render-pool';

/** A render worker: the one MarkdownRenderer, answering RenderPool's requests. */
const renderer = new MarkdownRenderer();
serveRequests(({ markdown, variables, baseSlug }: RenderRequest) =>
  renderer.renderPage(markdown, variables, baseSlug),
);
