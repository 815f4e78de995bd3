import { useRef, type ComponentType, type RefObject } from 'react';
import type { Page } from '../../../api/types';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { isProblem } from '../../../api/problem';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { ancestorsOf, paths, slugFromSplat } from '../../../lib/slugs';
import { canEdit, useCurrentUser } from '../../../api/me';
import { useEditingCount, usePage } from '../../../api/pages';
import { DraftNotice } from './draft-notice';
import { PageActions } from './page-actions';
import { PageHtml } from '../../../components/page-html';
import { Backlinks, LifecycleBadge, PageMeta, VerifiedMark } from './page-meta';
import { useDocumentTitle } from '../../../components/use-document-title';
import { LiveUpdateBanner } from '../../../components/live-banners';
import { TableOfContents } from './table-of-contents';

function Breadcrumbs({ slug }: { slug: string }) {
  const parts = ancestorsOf(slug);
  if (parts.length < 2) return null;
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {parts.slice(0, -1).map((part) => (
          <li key={part.slug}>
            <Link to={paths.page(part.slug)}>{part.name}</Link>
          </li>
        ))}
        <li aria-current="page">{parts[parts.length - 1].name}</li>
      </ol>
    </nav>
  );
}

function Missing({ slug, editor }: { slug: string; editor: boolean }) {
  return (
    <div className="screen screen--narrow">
      <h1 className="screen__title">No page at “{slug}”</h1>
      <p className="screen__lead">
        It does not exist, it was moved to the bin, or you may not see it.
      </p>
      {editor && (
        <Link
          className="button button--primary"
          to={`${paths.newPage()}?slug=${encodeURIComponent(slug)}`}
        >
          Create this page
        </Link>
      )}
    </div>
  );
}

/** Where the page came from when it was reached through an old slug (the API's 308). */
interface MovedState {
  movedFrom?: string;
  movedPages?: number;
}

/** A slug as the API stores it, to tell a redirect from a differently written address. */
function storedForm(slug: string): string {
  return slug.normalize('NFC').toLowerCase().normalize('NFC');
}

function MovedNote({ state }: { state: MovedState }) {
  if (!state.movedFrom) return null;
  const others = (state.movedPages ?? 1) - 1;
  return (
    <p className="banner banner--info" role="status">
      Moved from <code>{state.movedFrom}</code>
      {others > 0 && `, with ${others} ${others === 1 ? 'page' : 'pages'} under it`}.
    </p>
  );
}

/** "N editing" while a live editing session of the page is open. */
function EditingNow({ slug }: { slug: string }) {
  const editing = useEditingCount(slug).data ?? 0;
  if (editing === 0) return null;
  return (
    <p className="page__editing" role="status">
      {editing} editing
    </p>
  );
}

/**
 * What other features add to a page (the comments feature's count and panel), handed in by the
 * app's router: a feature never imports another one (docs/architecture.md).
 */
export interface PageAddOns {
  Badge?: ComponentType<{ slug: string }>;
  Aside?: ComponentType<{ page: Page; content: RefObject<HTMLElement | null> }>;
}

export function PageScreen({ addOns = {} }: { addOns?: PageAddOns }) {
  const { Badge, Aside } = addOns;
  const slug = slugFromSplat(useParams()['*']);
  const location = useLocation();
  const user = useCurrentUser();
  const editor = canEdit(user);
  const { data: page, error, isPending } = usePage(slug);
  const content = useRef<HTMLDivElement>(null);
  useDocumentTitle(page?.title ?? slug);

  if (isPending) return <Spinner />;
  if (isProblem(error, 404)) return <Missing slug={slug} editor={editor} />;
  if (error || !page) return <ProblemMessage error={error} />;
  // The API followed a redirect from an old slug: show the page at its address now.
  if (page.slug !== storedForm(slug))
    return (
      <Navigate
        to={`${paths.page(page.slug)}${location.hash}`}
        replace
        state={{ movedFrom: slug } satisfies MovedState}
      />
    );

  return (
    <article className="page" lang={page.language ?? undefined} aria-labelledby="page-title">
      <Breadcrumbs slug={page.slug} />
      <LiveUpdateBanner page={page} />
      <MovedNote state={(location.state ?? {}) as MovedState} />
      {editor && <DraftNotice slug={page.slug} content={page.content} />}
      {(page.lifecycle === 'deprecated' || page.deprecatedTarget) && (
        <div className="banner banner--warning" role="note">
          <strong>Deprecated.</strong>{' '}
          {page.deprecatedTarget ? (
            <>
              See <Link to={paths.page(page.deprecatedTarget)}>{page.deprecatedTarget}</Link>{' '}
              instead.
            </>
          ) : (
            'This page is no longer maintained.'
          )}
        </div>
      )}
      <header className="page__header">
        <h1 id="page-title" className="page__title">
          {page.icon && (
            <span className="page__icon" aria-hidden="true">
              {page.icon}
            </span>
          )}
          {page.title}
        </h1>
        <div className="page__badges">
          <LifecycleBadge lifecycle={page.lifecycle} />
          {page.verified && <VerifiedMark />}
          {Badge && <Badge slug={page.slug} />}
          <EditingNow slug={page.slug} />
        </div>
        <PageActions page={page} canEdit={editor} canBin={user.role === 'admin'} />
      </header>
      <div className="page__body">
        <div className="page__content" ref={content}>
          <TableOfContents html={page.html} />
          <PageHtml html={page.html} editor={editor} />
        </div>
        <PageMeta page={page} />
        {Aside && <Aside page={page} content={content} />}
      </div>
      <Backlinks page={page} />
    </article>
  );
}

export default PageScreen;
