export {
  findMediaReferences,
  rewriteMediaReferences,
  type MediaReference,
  type MediaReferenceKind,
} from '../../common/text/media-urls';

/** The relative path from the folder of `fromFile` to `toFile` (both archive paths, POSIX). */
export function relativeArchivePath(fromFile: string, toFile: string): string {
  const from = fromFile.split('/').slice(0, -1);
  const to = toFile.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common += 1;
  const ups = from.length - common;
  return [...Array<string>(ups).fill('..'), ...to.slice(common)].join('/');
}
