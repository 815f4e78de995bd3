/** @jest-environment ./test/support/component-environment.js */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { fakeApi, json, type FakeApi } from '../../../../../test/support/fake-api';
import type { Page } from '../../../api/types';
import { useEditorSession } from './use-editor-session';

const page = (revision: number, content: string): Page =>
  ({
    slug: 'guides/setup',
    title: 'Setup',
    content,
    html: `<p>${content}</p>`,
    icon: null,
    language: null,
    tags: ['ops'],
    lifecycle: 'published',
    owner: null,
    reviewIntervalDays: null,
    nextReviewAt: null,
    groups: [],
    deprecatedTarget: null,
    properties: {},
    variables: {},
    verified: false,
    revision,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    updatedBy: 'ana',
    backlinks: [],
  }) as unknown as Page;

let where = '';
function Location() {
  where = useLocation().pathname;
  return null;
}

function session() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/edit/guides/setup']}>
        <Routes>
          <Route path="*" element={<Location />} />
        </Routes>
        {children}
      </MemoryRouter>
    </QueryClientProvider>
  );
  return renderHook(() => useEditorSession('guides/setup'), { wrapper });
}

let api: FakeApi;
afterEach(() => {
  cleanup();
  api.restore();
});

describe('useEditorSession', () => {
  it('loads the page, saves the edit on top of its revision (If-Match) and opens it', async () => {
    api = fakeApi({
      'GET /api/pages/guides/setup': () => json(page(3, 'Old text')),
      'PUT /api/pages/guides/setup': (body) => json(page(4, (body as { content: string }).content)),
    });
    const { result } = session();
    await waitFor(() => expect(result.current.fields?.content).toBe('Old text'));
    expect(result.current.baseRevision).toBe(3);

    act(() => result.current.change({ content: 'New text' }));
    await act(() => result.current.save());

    const put = api.requests.find(
      (r) => r.method === 'PUT' && r.path === '/api/pages/guides/setup',
    );
    expect(put?.headers.get('If-Match')).toBe('"3"');
    expect(put?.body).toEqual(expect.objectContaining({ title: 'Setup', content: 'New text' }));
    expect(result.current.error).toBeNull();
    await waitFor(() => expect(where).toBe('/wiki/guides/setup'));
  });

  it('offers the conflict choices when someone saved in between (412), and keeps the text', async () => {
    let current = page(3, 'Old text');
    api = fakeApi({
      'GET /api/pages/guides/setup': () => json(current),
      'PUT /api/pages/guides/setup': () =>
        json({ status: 412, code: 'precondition_failed', detail: 'Changed meanwhile.' }, 412),
    });
    const { result } = session();
    await waitFor(() => expect(result.current.fields?.content).toBe('Old text'));
    current = page(4, 'Their text');

    act(() => result.current.change({ content: 'My text' }));
    await act(() => result.current.save());

    await waitFor(() => expect(result.current.conflict).toBeTruthy());
    expect(result.current.conflict?.theirs.revision).toBe(4);
    expect(result.current.fields?.content).toBe('My text');
    expect(where).toBe('/edit/guides/setup');
  });

  it('refuses to save text that still holds conflict markers, without a request', async () => {
    api = fakeApi({ 'GET /api/pages/guides/setup': () => json(page(3, 'Old text')) });
    const { result } = session();
    await waitFor(() => expect(result.current.fields).not.toBeNull());

    act(() => result.current.change({ content: '<<<<<<< mine\na\n=======\nb\n>>>>>>> theirs' }));
    await act(() => result.current.save());

    expect(String(result.current.error)).toMatch(/conflict markers/);
    expect(api.requests.some((r) => r.method === 'PUT')).toBe(false);
  });
});
