// Ad media: which ones are videos (a name containing .mp4, .webm or .ogg; uploads of
// Ogg video are stored as .ogv).
export const isVideoMedia = (media: string): boolean => /\.(mp4|webm|ogg|ogv)/i.test(media);

/** An ad link we are willing to follow: absolute http(s) only. */
export function safeLink(link: string | null | undefined): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
