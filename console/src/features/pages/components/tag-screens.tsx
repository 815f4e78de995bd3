import { useParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { usePagesByTag, useTags } from '../../../api/pages';
import { PageList } from './page-list';
import { TagCloud } from './tag-cloud';
import { useDocumentTitle } from '../../../components/use-document-title';

export function TagScreen() {
  const tag = useParams().tag ?? '';
  const pages = usePagesByTag(tag);
  useDocumentTitle(`Tag ${tag}`);
  return (
    <div className="screen screen--narrow">
      <header className="screen__header">
        <h1 className="screen__title">
          Pages tagged <span className="tag-chip tag-chip--title">{tag}</span>
        </h1>
      </header>
      {pages.isPending ? (
        <Spinner />
      ) : pages.isError ? (
        <ProblemMessage error={pages.error} />
      ) : pages.items.length === 0 ? (
        <EmptyState>No page you can see has this tag.</EmptyState>
      ) : (
        <PageList pages={pages.items} label={`Pages tagged ${tag}`} />
      )}
      <LoadMore list={pages} />
    </div>
  );
}

export function TagsScreen() {
  const tags = useTags(100);
  useDocumentTitle('Tags');
  return (
    <div className="screen screen--narrow">
      <header className="screen__header">
        <h1 className="screen__title">All tags</h1>
      </header>
      {tags.isPending ? (
        <Spinner />
      ) : tags.items.length === 0 ? (
        <EmptyState>No tags yet.</EmptyState>
      ) : (
        <TagCloud tags={tags.items} className="tag-cloud tag-cloud--large" />
      )}
      <LoadMore list={tags} />
    </div>
  );
}
