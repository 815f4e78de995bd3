import { mediaName, pickReusable, ReusableMedia } from './run-media';

describe('media reuse on re-import', () => {
  const medium = (id: string, filename: string): ReusableMedia => ({
    id,
    url: `/api/images/${id}/content`,
    sha256: 'same',
    filename,
  });

  it('names a file as the media service stores it', () => {
    expect(mediaName('attachments/1/2/logo.png', 'image')).toBe('logo.png');
    expect(mediaName('attachments/1/2/a:b?.csv', 'attachment')).toBe('a_b_.csv');
  });

  it('picks the medium stored under the file name, then one with an added extension, else the first', () => {
    const candidates = [
      medium('m1', 'logo.png'),
      medium('m2', 'diagram.png'),
      medium('m3', 'scan.png'),
    ];
    expect(pickReusable(candidates, 'diagram.png')?.id).toBe('m2');
    expect(pickReusable(candidates, 'scan')?.id).toBe('m3');
    expect(pickReusable(candidates, 'other.png')?.id).toBe('m1');
    expect(pickReusable(undefined, 'logo.png')).toBeUndefined();
    expect(pickReusable([], 'logo.png')).toBeUndefined();
  });
});
