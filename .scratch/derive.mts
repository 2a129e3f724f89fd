// times the derivation of every place on an imported SQLite file
import Database from 'better-sqlite3';
const [tree, file] = process.argv.slice(2);
const { addressPlan } = await import(`${tree}/src/places/store/addresses.ts`);
const { runPlanOn } = await import(`${tree}/src/places/store/sqlite/plans.ts`);
const db = new Database(file);
db.exec("update places set address = null, address_source = null");
const t = performance.now(); const c = process.cpuUsage();
const summary = db.transaction(() => runPlanOn(db, addressPlan({ source: null, put: [], remove: [], within: 'all' })))();
const u = process.cpuUsage(c);
console.log(JSON.stringify(summary), ((performance.now() - t) / 1000).toFixed(2), 's wall', ((u.user + u.system) / 1e6).toFixed(2), 's cpu', Math.round(process.memoryUsage().rss / 1e6), 'MB rss');
