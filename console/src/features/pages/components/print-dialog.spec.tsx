/** @jest-environment ./test/support/component-environment.js */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, json, type FakeApi } from '../../../../../test/support/fake-api';
import PrintDialog from './print-dialog';

const VARIABLES = {
  variables: [
    { name: 'customer', value: 'Initech', source: 'page' },
    { name: 'product', value: 'Gadget', source: 'site' },
  ],
};

function open(onClose = jest.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PrintDialog slug="guides/setup" title="Setup" onClose={onClose} />
    </QueryClientProvider>,
  );
  return onClose;
}

let api: FakeApi;
afterEach(() => {
  cleanup();
  api.restore();
});

describe('PrintDialog', () => {
  it('shows each variable with its saved value and previews with only the changed ones', async () => {
    api = fakeApi({
      'GET /export/variables/guides/setup': () => json(VARIABLES),
      'POST /export/preview/guides/setup': (body) =>
        json({ document: `<p>${JSON.stringify(body)}</p>` }),
    });
    open();
    const customer = await screen.findByRole('textbox', { name: 'customer' });
    expect((customer as HTMLInputElement).value).toBe('Initech');
    expect(screen.getByText('Site-wide value')).toBeTruthy();
    expect(screen.getByText('The preview appears here.')).toBeTruthy();

    await userEvent.clear(customer);
    await userEvent.type(customer, 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Preview print' }));

    const frame = (await screen.findByTitle('Print preview')) as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin allow-modals');
    expect(frame.getAttribute('srcdoc')).toBe('<p>{"variables":{"customer":"Acme"}}</p>');
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /export/variables/guides/setup',
      'POST /export/preview/guides/setup',
    ]);
  });

  it("shows the server's field problem beside the variable it is about", async () => {
    api = fakeApi({
      'GET /export/variables/guides/setup': () => json(VARIABLES),
      'POST /export/preview/guides/setup': () =>
        json(
          {
            status: 422,
            code: 'validation_failed',
            detail: 'A value is not valid.',
            errors: [{ field: 'variables.product', code: 'value_too_long', message: 'Too long.' }],
          },
          422,
        ),
    });
    open();
    await userEvent.type(await screen.findByRole('textbox', { name: 'product' }), '!');
    await userEvent.click(screen.getByRole('button', { name: 'Preview print' }));
    expect(await screen.findByText('Too long.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('A value is not valid.');
    expect(screen.queryByTitle('Print preview')).toBeNull();
  });

  it('says when the page uses no variables, and Close closes', async () => {
    api = fakeApi({ 'GET /export/variables/guides/setup': () => json({ variables: [] }) });
    const onClose = open();
    expect(
      await screen.findByText('This page uses no variables: it prints as saved.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
