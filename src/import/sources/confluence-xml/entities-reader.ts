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
  const builder = new ObjectBuilder(onObject, options);
  const parser = new SaxesParser({ xmlns: false, position: false });
  let failure: Error | undefined;
  parser.on('error', (error) => {
    failure ??= new EntitiesFormatError(error.message);
  });
  parser.on('opentag', (tag) => builder.open(tag.name, tag.attributes as Record<string, string>));
  parser.on('text', (chunk) => builder.addText(chunk));
  parser.on('cdata', (chunk) => builder.addText(chunk));
  parser.on('closetag', (tag) => builder.close(tag.name));

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

/** Turns the parser's events into one `EntityObject` at a time. */
class ObjectBuilder {
  // Path inside the current object: [property|id|collection|element|id…]
  private readonly stack: { name: string; attributes: Record<string, string> }[] = [];
  private current: EntityObject | undefined;
  /** The text of the `<id>` or kept `<property>` being read, undefined when none is. */
  private text: string[] | undefined;
  private textLength = 0;
  private readonly maxChars: number;

  constructor(
    private readonly onObject: (object: EntityObject) => void,
    private readonly options: ReadOptions,
  ) {
    this.maxChars = options.maxValueChars ?? 64 * 1024;
  }

  open(name: string, attributes: Record<string, string>): void {
    this.stack.push({ name, attributes });
    if (name === 'object' && this.stack.length === 2) {
      this.current = { type: attributes.class ?? '', id: '', values: new Map(), refs: new Map() };
      return;
    }
    if (!this.current) return;
    const depth = this.stack.length;
    if (this.stack.some((s) => s.name === 'collection')) return;
    if (name === 'id' && (depth === 3 || depth === 4)) {
      this.text = [];
      this.textLength = 0;
    } else if (name === 'property' && depth === 3) {
      this.text = this.options.keep(this.current.type, attributes.name ?? '') ? [] : undefined;
      this.textLength = 0;
    }
  }

  addText(chunk: string): void {
    if (!this.text || this.textLength >= this.maxChars) return;
    const room = this.maxChars - this.textLength;
    const piece = chunk.length > room ? chunk.slice(0, room) : chunk;
    this.text.push(piece);
    this.textLength += piece.length;
  }

  close(name: string): void {
    const depth = this.stack.length;
    const closing = this.stack.pop();
    const current = this.current;
    if (!current || !closing) return;
    const text = this.text;
    if (name === 'object' && depth === 2) {
      if (current.id !== '') this.onObject(current);
      this.current = undefined;
      this.text = undefined;
      return;
    }
    if (name === 'id' && depth === 3 && text) {
      current.id = text.join('').trim();
      this.text = undefined;
    } else if (name === 'id' && depth === 4 && text) {
      // <property name="parent" class="Page"><id name="id">…</id></property>
      const property = this.stack[this.stack.length - 1];
      if (property?.name === 'property' && property.attributes.name)
        current.refs.set(property.attributes.name, text.join('').trim());
      this.text = undefined;
    } else if (name === 'property' && depth === 3) {
      const propertyName = closing.attributes.name ?? '';
      if (text && !current.refs.has(propertyName)) current.values.set(propertyName, text.join(''));
      this.text = undefined;
    }
  }
}
