import { useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { Format } from '../model/markdown-format';
import { FORMAT_KEYS, type MarkdownEditorHandle } from './markdown-editor';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** `Mod-Shift-8` as a person reads it (Ctrl+Shift+8, ⌘⇧8) and as aria-keyshortcuts spells it. */
function keysOf(binding: string): { shown: string; aria: string } {
  const parts = binding.split('-').map((p) => (p === '' ? '-' : p));
  const key = parts.pop()!.toUpperCase();
  const mods = parts.map((m) => (m === 'Mod' ? (isMac ? 'Meta' : 'Control') : m));
  const names: Record<string, string> = isMac
    ? { Meta: '⌘', Shift: '⇧', Alt: '⌥' }
    : { Control: 'Ctrl+', Shift: 'Shift+', Alt: 'Alt+' };
  return {
    shown: `${mods.map((m) => names[m]).join('')}${key}`,
    aria: [...mods, key].join('+'),
  };
}

/** Drawn, not written: a visible "1." would have to be part of the button's name. */
const NUMBERED = (
  <svg viewBox="0 0 16 16" width="16" height="16" className="format-toolbar__icon">
    <path d="M2 2.5h1.2v4M2 9.5h2.2L2 13h2.4M7 4h7M7 11h7" />
  </svg>
);

const LINK = (
  <svg viewBox="0 0 16 16" width="16" height="16" className="format-toolbar__icon">
    <path d="M6.5 9.5l3-3M7 4.5l1.2-1.2a2.5 2.5 0 0 1 3.5 3.5L10.5 8M9 11.5l-1.2 1.2a2.5 2.5 0 0 1-3.5-3.5L5.5 8" />
  </svg>
);

const IMAGE = (
  <svg viewBox="0 0 16 16" width="16" height="16" className="format-toolbar__icon">
    <path d="M2.5 3.5h11v9h-11zM2.5 11l3.5-3.5 3 3 2-2 2.5 2.5" />
    <circle cx="10.5" cy="6" r="1" />
  </svg>
);

const BUTTONS: { format: Format; label: string; face: ReactNode }[] = [
  { format: 'heading', label: 'Heading', face: 'H' },
  { format: 'bold', label: 'Bold', face: 'B' },
  { format: 'italic', label: 'Italic', face: 'I' },
  { format: 'link', label: 'Link', face: LINK },
  { format: 'bullet', label: 'Bulleted list', face: '•' },
  { format: 'numbered', label: 'Numbered list', face: NUMBERED },
  { format: 'checklist', label: 'Checklist', face: '☑' },
  { format: 'code', label: 'Code', face: '</>' },
  { format: 'quote', label: 'Quote', face: '❝' },
  { format: 'table', label: 'Table', face: '▦' },
];

/** Arrow keys, Home and End move between a toolbar's buttons (one tab stop for the toolbar). */
function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  const keys = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];
  if (!keys.includes(event.key)) return;
  const buttons = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('button'));
  const at = buttons.indexOf(document.activeElement as HTMLElement);
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? buttons.length - 1
        : (at + (event.key === 'ArrowRight' ? 1 : -1) + buttons.length) % buttons.length;
  event.preventDefault();
  buttons.forEach((b, i) => (b.tabIndex = i === next ? 0 : -1));
  buttons[next].focus();
}

/**
 * Heading, bold, italic, link, lists, checklist, code, quote, table and image, each with its
 * shortcut (in its tooltip and `aria-keyshortcuts`). Image picks image files to upload.
 */
export function FormatToolbar({
  editor,
  onImages,
}: {
  editor: RefObject<MarkdownEditorHandle | null>;
  onImages: (files: File[]) => void;
}) {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <div
      className="format-toolbar"
      role="toolbar"
      aria-label="Formatting"
      aria-controls="editor-content"
      onKeyDown={moveFocus}
    >
      {BUTTONS.map(({ format, label, face }, i) => {
        const keys = keysOf(FORMAT_KEYS[format]);
        return (
          <button
            key={format}
            type="button"
            className={`format-toolbar__button format-toolbar__button--${format}`}
            aria-label={label}
            title={`${label} (${keys.shown})`}
            aria-keyshortcuts={keys.aria}
            tabIndex={i === 0 ? 0 : -1}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => editor.current?.format(format)}
          >
            <span aria-hidden="true">{face}</span>
          </button>
        );
      })}
      <button
        type="button"
        className="format-toolbar__button"
        aria-label="Image"
        title="Image (upload a picture)"
        tabIndex={-1}
        onClick={() => picker.current?.click()}
      >
        <span aria-hidden="true">{IMAGE}</span>
      </button>
      <input
        ref={picker}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        multiple
        hidden
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length) onImages(files);
        }}
      />
    </div>
  );
}
