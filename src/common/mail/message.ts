import type { MailMessage } from './mailer';

/** What a message says: paragraphs of text, an optional button-like link, and a closing note. */
export interface MessageParts {
  to: string;
  kind: string;
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Further lines after the action (a list of items, a note why the mail came). */
  after?: string[];
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The plain text and simple HTML of one message, saying the same; every value is escaped. */
export function composeMessage(parts: MessageParts): MailMessage {
  const text = [
    ...parts.paragraphs,
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`] : []),
    ...(parts.after ?? []),
  ].join('\n\n');
  const p = (line: string) => `<p>${escapeHtml(line).replace(/\n/g, '<br>')}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5; max-width: 36rem">',
    ...parts.paragraphs.map(p),
    ...(parts.action
      ? [
          `<p><a href="${escapeHtml(parts.action.url)}" style="display: inline-block; padding: 0.5rem 1rem; background: #2451b3; color: #fff; text-decoration: none; border-radius: 4px">${escapeHtml(parts.action.label)}</a></p>`,
          `<p style="color: #555; font-size: 0.9em">${escapeHtml(parts.action.url)}</p>`,
        ]
      : []),
    ...(parts.after ?? []).map(p),
    '</body></html>',
  ].join('\n');
  return { to: parts.to, kind: parts.kind, subject: parts.subject, text: `${text}\n`, html };
}
