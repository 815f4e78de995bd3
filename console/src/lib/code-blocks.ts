/**
 * Copy and line-number buttons on the code blocks of rendered page HTML. The HTML is the
 * API's (set with innerHTML), so the buttons are added to the DOM after it is in place and go
 * when it is replaced. The line-number choice is remembered for every block.
 */
const LINE_NUMBERS_KEY = 'kb.codeLineNumbers';

function lineNumbersWanted(): boolean {
  try {
    return localStorage.getItem(LINE_NUMBERS_KEY) === 'on';
  } catch {
    return false;
  }
}

function rememberLineNumbers(on: boolean): void {
  try {
    localStorage.setItem(LINE_NUMBERS_KEY, on ? 'on' : 'off');
  } catch {
    // storage refused (private mode): the choice lasts for this view only
  }
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (plain http on another host): the old way, through a selection.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

function button(label: string): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = 'button';
  element.textContent = label;
  return element;
}

function setLineNumbers(block: HTMLElement, on: boolean): void {
  block.classList.toggle('code-block--numbered', on);
  block.querySelector('.code-block__lines')?.setAttribute('aria-pressed', String(on));
}

/** Wraps each `pre > code` of `root` with its buttons. */
export function enhanceCodeBlocks(root: HTMLElement): void {
  const numbered = lineNumbersWanted();
  for (const pre of root.querySelectorAll<HTMLPreElement>('pre')) {
    const code = pre.querySelector('code');
    if (!code || pre.parentElement?.classList.contains('code-block')) continue;
    const block = document.createElement('div');
    block.className = 'code-block';
    pre.replaceWith(block);

    const text = (code.textContent ?? '').replace(/\n$/, '');
    const gutter = document.createElement('pre');
    gutter.className = 'code-block__gutter';
    gutter.setAttribute('aria-hidden', 'true');
    gutter.textContent = text
      .split('\n')
      .map((_line, i) => String(i + 1))
      .join('\n');

    const copy = button('Copy');
    copy.addEventListener('click', async () => {
      copy.textContent = (await copyText(text)) ? 'Copied' : 'Copy failed';
      window.setTimeout(() => (copy.textContent = 'Copy'), 1500);
    });
    const lines = button('Line numbers');
    lines.classList.add('code-block__lines');
    lines.addEventListener('click', () => {
      const on = !block.classList.contains('code-block--numbered');
      rememberLineNumbers(on);
      for (const other of document.querySelectorAll<HTMLElement>('.code-block'))
        setLineNumbers(other, on);
    });
    const actions = document.createElement('div');
    actions.className = 'code-block__actions';
    actions.append(copy, lines);

    block.append(gutter, pre, actions);
    setLineNumbers(block, numbered);
  }
}
