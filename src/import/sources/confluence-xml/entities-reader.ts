import { SaxesParser } from 'saxes';

/**
 * Streaming reader of a Confluence XML export's `entities.xml` (Hibernate's generic dump):
 *
 *   <hibernate-generic datetime="…">
 *     <object class="Page" package="com.atlassian.confluence.pages">
 *       <id name="id">98307</id>
 *       <property name="title"><![CDATA[Getting started]]></property>
 *       <property name="parent" class="Page" package="…"><id name="id">98305</id></property>
 *       <collection name="bodyContents" …><element class="BodyContent" …><id name="id">…</id></element></collection>
 *     </object>
 *     …
 *
 * The file is fed to a SAX parser in slices (yielding to the event loop between them), never
 * built into a tree: each `<object>` becomes a small record of its scalar properties and its
 * references (`property` holding an `<id>`), handed to the caller and forgotten. Collections are
 * skipped (every relation kb needs is also a reference on the other side).
 */
export interface EntityObject {
  /** `Page`, `BlogPost`, `BodyContent`, `Attachment`, `Space`, `ConfluenceUserImpl`, `Label`… */
  type: string;
  id: string;
  /** Scalar properties (CDATA or text); only those the caller asked for are kept. */
  values: Map<string, string>;
  /** Reference properties: name → the referenced object's id. */
  refs: Map<string, string>;
}

export interface ReadOptions {
  /** Whether to keep a scalar property's text (the others are not even accumulated). */
  keep(type: string, property: string): boolean;
  /** Longest text kept for one property; longer values are cut (bodies use their own limit). */
  maxValueChars?: number;
  /** Awaited between slices so a big file does not hold the event loop. */
  tick: () => Promise<void>;
}

export class EntitiesFormatError extends Error {}

const SLICE_BYTES = 256 * 1024;

/** Parses `data` (UTF-8 XML) and calls `onObject` for every top-level `<object>`. */
export async function readEntities(
  data: Buffer,
  onObject: (object: EntityObject) => void,
  options: ReadOptions,
): Promise<void> {
  const maxChars = options.maxValueChars ?? 64 * 1024;
  const parser = new SaxesParser({ xmlns: false, position: false });
  let failure: Error | undefined;
  // Path inside the current object: [property|id|collection|element|id…]
  const stack: { name: string; attributes: Record<string, string> }[] = [];
  let current: EntityObject | undefined;
  let text: string[] | undefined;
  let textLength = 0;

  parser.on('error', (error) => {
    failure ??= new EntitiesFormatError(error.message);
  });
  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Record<string, string>;
    stack.push({ name: tag.name, attributes });
    if (tag.name === 'object' && stack.length === 2) {
      current = { type: attributes.class ?? '', id: '', values: new Map(), refs: new Map() };
      return;
    }
    if (!current) return;
    const depth = stack.length;
    const inCollection = stack.some((s) => s.name === 'collection');
    if (inCollection) return;
    if (tag.name === 'id' && (depth === 3 || depth === 4)) {
      text = [];
      textLength = 0;
    } else if (tag.name === 'property' && depth === 3) {
      const name = attributes.name ?? '';
      text = options.keep(current.type, name) ? [] : undefined;
      textLength = 0;
    }
  });
  const onText = (chunk: string): void => {
    if (!text || textLength >= maxChars) return;
    const room = maxChars - textLength;
    const piece = chunk.length > room ? chunk.slice(0, room) : chunk;
    text.push(piece);
    textLength += piece.length;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    const depth = stack.length;
    const closing = stack.pop();
    if (!current || !closing) return;
    if (tag.name === 'object' && depth === 2) {
      if (current.id !== '') onObject(current);
      current = undefined;
      text = undefined;
      return;
    }
    if (tag.name === 'id' && depth === 3 && text) {
      current.id = text.join('').trim();
      text = undefined;
    } else if (tag.name === 'id' && depth === 4 && text) {
      // <property name="parent" class="Page"><id name="id">…</id></property>
      const property = stack[stack.length - 1];
      if (property?.name === 'property' && property.attributes.name)
        current.refs.set(property.attributes.name, text.join('').trim());
      text = undefined;
    } else if (tag.name === 'property' && depth === 3) {
      const name = closing.attributes.name ?? '';
      if (text && !current.refs.has(name)) current.values.set(name, text.join(''));
      text = undefined;
    }
  });

  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (let offset = 0; offset < data.length && !failure; offset += SLICE_BYTES) {
    const slice = data.subarray(offset, Math.min(offset + SLICE_BYTES, data.length));
    parser.write(decoder.decode(slice, { stream: true }));
    await options.tick();
  }
  if (!failure) {
    const rest = decoder.decode();
    if (rest) parser.write(rest);
    parser.close();
  }
  if (failure) throw failure;
}
