/** Who asks pages which media they reference (PagesService implements it). */
export interface MediaReferenceLookup {
  /** Slugs of pages (live or in the bin) whose content references the media item. */
  slugsReferencingMedia(mediaId: string): Promise<string[]>;
}

export const MEDIA_REFERENCES = Symbol('MEDIA_REFERENCES');
