// Run as a program of its own (`node --import tsx test/support/write-own-place.ts <database url>
// <name> <lat> <lon>`): writes one own restaurant through the store, as another process of the
// site would, and prints the position its write returned.
import { createDb, migrate } from '../../db/index.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { createPlaceStore } from '../../src/places/store/index.js';

const [url, name, lat, lon] = process.argv.slice(2);
const handle = createDb(parseDatabaseUrl(url)!, { poolSize: 1 });
try {
  await migrate(handle);
  const { places, position } = await createPlaceStore(handle).writeOwn(
    { upsert: [{ name, category: 'restaurant', lat: Number(lat), lon: Number(lon) }], remove: [] },
    Date.now(),
  );
  console.log(JSON.stringify({ osmId: places[0].osmId, position }));
} finally {
  await handle.close();
}
