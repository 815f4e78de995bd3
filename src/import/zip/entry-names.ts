/**
 * Guards for names inside archives (and uploaded file names): an import never writes outside its
 * own tree, so every name is normalised and hostile ones are refused instead of "fixed".
 */
export type EntryNameCheck =
  | { kind: 'ok'; path: string }
  | { kind: 'skip' }
  | { kind: 'refused'; code: string; reason: string };

/** Windows device names: opening them as files reaches a device, on any extension. */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)(\..*)?$/i;

/** Folders and files operating systems leave in archives; never content. */
const SKIPPED_FOLDERS = new Set(['__macosx']);
const SKIPPED_FILES = new Set(['.ds_store', 'thumbs.db', 'desktop.ini']);

export function checkEntryName(raw: string, isDirectory = false): EntryNameCheck {
  if (raw.includes('\0')) return refused('unsafe_entry_name', 'contains a NUL character');
  if (raw.includes('\\')) return refused('unsafe_entry_name', 'contains a backslash');
  if (/^[a-z]:/i.test(raw)) return refused('unsafe_entry_name', 'starts with a drive letter');
  if (raw.startsWith('/')) {
    // A bare "/" directory entry appears in real Confluence exports; it holds nothing.
    if (isDirectory && /^\/+$/.test(raw)) return { kind: 'skip' };
    return refused('unsafe_entry_name', 'is an absolute path');
  }
  const segments: string[] = [];
  for (const segment of raw.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..')
      return refused('unsafe_entry_name', 'climbs out of the archive with ".."');
    if (DEVICE_NAME.test(segment.replace(/[ .]+$/, '')))
      return refused('unsafe_entry_name', 'uses a reserved device name');
    if ([...segment].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
      return refused('unsafe_entry_name', 'contains control characters');
    segments.push(segment.normalize('NFC'));
  }
  if (segments.length === 0) return { kind: 'skip' };
  if (SKIPPED_FOLDERS.has(segments[0].toLowerCase())) return { kind: 'skip' };
  if (SKIPPED_FILES.has(segments[segments.length - 1].toLowerCase())) return { kind: 'skip' };
  if (segments.some((s) => s.startsWith('._'))) return { kind: 'skip' };
  if (isDirectory) return { kind: 'skip' };
  return { kind: 'ok', path: segments.join('/') };
}

function refused(code: string, reason: string): EntryNameCheck {
  return { kind: 'refused', code, reason };
}
