import { serveRequests } from '../../common/workers/serve-requests';
import { MarkdownRenderer } from './markdown-renderer';
import type { RenderRequest } from './render-pool';

/** A render worker: the one MarkdownRenderer, answering RenderPool's requests. */
const renderer = new MarkdownRenderer();
serveRequests((request: RenderRequest) =>
  request.kind === 'page'
    ? renderer.renderPage(request.markdown, request.variables, request.baseSlug)
    : {
        html: renderer.render(request.markdown, request.variables, { baseSlug: request.baseSlug }),
        links: [],
      },
);
