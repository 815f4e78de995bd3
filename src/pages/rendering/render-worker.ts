import { serveRequests } from '../../common/workers/serve-requests';
import { MarkdownRenderer } from './markdown-renderer';
import type { RenderRequest } from './render-pool';
import { loadRichContentLibraries } from './rich-content';

/** A render worker: the one MarkdownRenderer, answering RenderPool's requests. */
const renderer = new MarkdownRenderer();
loadRichContentLibraries();
serveRequests((request: RenderRequest) =>
  request.kind === 'page'
    ? renderer.renderPage(request.markdown, request.variables, request.baseSlug)
    : {
        html: renderer.render(request.markdown, request.variables, { baseSlug: request.baseSlug }),
        links: [],
      },
);
