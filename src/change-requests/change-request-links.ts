import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import { PageBrowseService } from '../pages/public-api';
import { PagesService } from '../pages/public-api';
import { linkOccurrences } from '../pages/public-api';
import { ChangeRequestPlanner } from './change-request-plan';
import type { BrokenLinkResponse } from './dto/change-request.dto';
import type { LoadedRequest } from './change-requests.service';

/**
 * The link report of a request's proposed state: internal links that would lead nowhere after
 * the merge — in the pages it creates or updates (as merged with edits made since), and in
 * the pages that link to pages it moves to the bin. A target the reader may not see counts as
 * broken, as in GET /api/reports/links, so the report reveals nothing.
 */
@Injectable()
export class ChangeRequestLinks {
  constructor(
    private readonly pages: PagesService,
    private readonly browse: PageBrowseService,
    private readonly planner: ChangeRequestPlanner,
  ) {}

  async report({ changes }: LoadedRequest, viewer: AuthUser): Promise<BrokenLinkResponse[]> {
    const { planned } = await this.planner.plan(changes, viewer);
    const proposed = new Map<string, string>();
    for (const change of changes)
      if (change.action === 'create' || change.action === 'update')
        proposed.set(change.slug, change.content ?? change.baseContent ?? '');
    for (const p of planned)
      if (p.action === 'update') proposed.set(p.page.slug, p.content);
      else if (p.action === 'create') proposed.set(p.slug, p.content);
    const gone = new Set(changes.filter((c) => c.action === 'bin').map((c) => c.slug));
    const created = new Set(
      changes.flatMap((c) =>
        c.action === 'create' ? [c.slug] : c.action === 'move' ? [c.to!] : [],
      ),
    );
    // Pages linking to a page that goes to the bin lose their target.
    for (const change of changes.filter((c) => c.action === 'bin' && c.pageId)) {
      for (const link of await this.browse.backlinks(change.pageId!, change.slug, viewer)) {
        if (proposed.has(link.slug) || gone.has(link.slug)) continue;
        const page = await this.pages.findVisible(link.slug, viewer);
        if (page) proposed.set(page.slug, page.content);
      }
    }
    const occurrences = [...proposed].map(([slug, content]) => ({
      slug,
      links: linkOccurrences(content, slug).filter(
        (o) => o.kind === 'link' && o.mediaId === undefined,
      ),
    }));
    const targets = [
      ...new Set(occurrences.flatMap((o) => o.links.flatMap((l) => (l.slug ? [l.slug] : [])))),
    ];
    const live = new Set(await this.browse.visibleLiveSlugs(viewer, targets));
    const exists = (slug: string | undefined) =>
      slug !== undefined && !gone.has(slug) && (live.has(slug) || created.has(slug));
    return occurrences
      .flatMap(({ slug, links }) =>
        links
          .filter((l) => !exists(l.slug))
          .map((l) => ({ page: slug, target: l.target, line: l.line, kind: l.kind })),
      )
      .sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : a.line - b.line));
  }
}

/** The report as JUnit XML for CI: one test case per page checked, failing with its broken links. */
export function linksJUnit(
  id: number,
  title: string,
  pages: string[],
  broken: BrokenLinkResponse[],
): string {
  const suite = `kb change request #${id}: ${title}`;
  const cases = pages.map((page) => {
    const mine = broken.filter((b) => b.page === page);
    const open = `    <testcase name="${attr(page)}" classname="kb.change_request.page" file="${attr(page)}" time="0"`;
    if (mine.length === 0) return `${open}/>`;
    const message = mine.map((b) => `line ${b.line}: broken link to ${b.target}`).join('\n');
    return [
      `${open}>`,
      `      <failure type="broken_link" message="${attr(`${mine.length} broken link${mine.length === 1 ? '' : 's'}`)}">${text(message)}</failure>`,
      '    </testcase>',
    ].join('\n');
  });
  const failures = pages.filter((p) => broken.some((b) => b.page === p)).length;
  const counts = `tests="${pages.length}" failures="${failures}" errors="0" skipped="0" time="0.000"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(suite)}" ${counts}>`,
    `  <testsuite name="${attr(suite)}" id="${id}" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function text(value: string): string {
  return value
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}
