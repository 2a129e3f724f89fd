// The one brute-force reference every nearest-places test compares with (move-db checks with it too).
export { nearestByScan, type ScannedPlace } from '../../src/places/search/reference.js';
