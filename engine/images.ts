/**
 * Image upload rules (spec 001 §5: review program image .gif/.jpg/.png under 2 MB; spec 002 §5:
 * 200 KB for deal and reward images, 10 MB for custom icons, .webp for QR codes). The type is read
 * from the file's leading bytes, so a renamed file is caught. Rules are data in
 * rules/image-rules.json.
 */
import imageRules from '../rules/image-rules.json';

export type ImageType = 'gif' | 'jpg' | 'png' | 'webp' | 'svg';

interface ImageRule {
  types: ImageType[];
  maxBytes: number;
  typeMessage: string;
  sizeMessage: string;
}

/** Upload purposes by name, from rules/image-rules.json. */
export const IMAGE_RULES: ReadonlyMap<string, ImageRule> = new Map(Object.entries(imageRules).filter(([k]) => !k.startsWith('$')) as [string, ImageRule][]);

/** The image type of a file from its first bytes, or null when it is not an image this app accepts. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const at = (i: number): number => bytes[i] ?? -1;
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) return 'png';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'jpg';
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x38) return 'gif';
  if (at(0) === 0x52 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x46 && at(8) === 0x57 && at(9) === 0x45 && at(10) === 0x42 && at(11) === 0x50) return 'webp';
  const head = new TextDecoder().decode(bytes.slice(0, 512)).trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'svg';
  return null;
}

/**
 * The spec's message when `bytes` may not be uploaded for `purpose`, or null when it may.
 * Throws RangeError for an unknown purpose.
 */
export function imageProblem(bytes: Uint8Array, purpose: string): { code: 'image_type' | 'image_size'; message: string } | null {
  const rule = IMAGE_RULES.get(purpose);
  if (!rule) throw new RangeError(`unknown image purpose "${purpose}"`);
  const type = sniffImageType(bytes);
  if (!type || !rule.types.includes(type)) return { code: 'image_type', message: rule.typeMessage };
  if (bytes.byteLength > rule.maxBytes) return { code: 'image_size', message: rule.sizeMessage };
  return null;
}
