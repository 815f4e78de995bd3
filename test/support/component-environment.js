// Jest environment of the console's component specs (console/src/**/*.spec.tsx): jsdom, plus
// what jsdom lacks and the console uses: Node's fetch classes (relative URLs resolve against
// the page, as in a browser) and <dialog>'s modal methods. `fetch` is fixed at start (the API
// client keeps the function it found) and hands each request to `fetchHandler`, which
// test/support/fake-api.ts sets: a spec never reaches a real network.
const { TestEnvironment } = require('jest-environment-jsdom');

const ORIGIN = 'http://kb.test';

class ComponentEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(
      {
        ...config,
        projectConfig: { ...config.projectConfig, testEnvironmentOptions: { url: `${ORIGIN}/` } },
      },
      context,
    );
    const g = this.global;
    class BrowserRequest extends Request {
      constructor(input, init) {
        super(typeof input === 'string' ? new URL(input, ORIGIN).href : input, init);
      }
    }
    Object.assign(g, {
      fetch: (input, init) =>
        g.fetchHandler
          ? g.fetchHandler(input, init)
          : Promise.reject(new TypeError('No network in a component spec: use fakeApi().')),
      Request: BrowserRequest,
      Response,
      Headers,
      FormData,
      Blob,
      ReadableStream,
      TextEncoder,
      TextDecoder,
      structuredClone,
    });
    const dialog = g.HTMLDialogElement.prototype;
    dialog.showModal = function showModal() {
      this.setAttribute('open', '');
    };
    dialog.close = function close() {
      if (!this.hasAttribute('open')) return;
      this.removeAttribute('open');
      this.dispatchEvent(new g.Event('close'));
    };
  }
}

module.exports = ComponentEnvironment;
