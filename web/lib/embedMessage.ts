// The one message the embedded locator (/embed) sends the page that frames it, and that
// /embed.js accepts: `{type: EMBED_HEIGHT_MESSAGE, height}` (the content's height in CSS pixels).
export const EMBED_HEIGHT_MESSAGE = 'nearby-place-finder:height';
