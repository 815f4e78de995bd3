/**
 * An old draft brought into a live session (issue 30): the change the draft made to the
 * revision it started from (`base` to `draft`), as edits of the shared text `live` (that
 * revision plus everything saved and typed since), last edit first. What others wrote outside
 * the draft's changes stays; where both changed the same text, the draft's change replaces that
 * region — exactly as the server applies an API write to a live session, so both use the one
 * pure function (src/collab/three-way.ts, which imports only fast-diff).
 */
export { editsOnto as draftEdits, type TextEdit } from '../../../../../src/collab/three-way';
