/**
 * Element groups shared by the renderer's sanitiser and the import's HTML tables (an imported
 * table Markdown cannot express stays HTML, and must survive the renderer's allow-list).
 */
export const TABLE_TAGS = ['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption'];

/** Bold, italic, underline and strikethrough, in their old and new spellings. */
export const EMPHASIS_TAGS = ['strong', 'b', 'em', 'i', 'u', 's', 'del'];
