import { IMAGE_RULES, sniffImageType } from '../../../engine/images';

/** The purpose an image widget uploads for when `ui:options.purpose` does not say. */
export const DEFAULT_IMAGE_PURPOSE = 'reward_image';

/** The rule of an upload purpose from rules/image-rules.json (unknown purposes fall back to the default's). */
export function imageRule(purpose: string) {
  const rule = IMAGE_RULES.get(purpose) ?? IMAGE_RULES.get(DEFAULT_IMAGE_PURPOSE);
  if (!rule) throw new RangeError(`ImageWidget: no image rule for "${purpose}"`);
  return rule;
}

/** What the file chooser offers for a purpose: `.gif,.jpg,.jpeg,.png` (+ `.svg`, `.webp` where allowed). */
export function acceptFor(purpose: string): string {
  return imageRule(purpose)
    .types.flatMap((type) => (type === 'jpg' ? ['.jpg', '.jpeg'] : [`.${type}`]))
    .join(',');
}

/**
 * The spec's message when `file` may not be uploaded for `purpose`, or null when it may. Checks the
 * same way the server does (engine/images.ts): the type from the file's first bytes, then the size,
 * so a refused file never costs an upload.
 */
export async function imageFileProblem(file: File, purpose: string): Promise<string | null> {
  const rule = imageRule(purpose);
  const head = new Uint8Array(await file.slice(0, 512).arrayBuffer());
  const type = sniffImageType(head);
  if (!type || !rule.types.includes(type)) return rule.typeMessage;
  if (file.size > rule.maxBytes) return rule.sizeMessage;
  return null;
}

/** "200 KB", "2 MB": a byte limit as the hint under the upload button shows it. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}
