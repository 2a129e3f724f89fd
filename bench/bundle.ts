// The public page's JavaScript against its budget: the measure lives in support/bundle.ts, which
// the bundle test runs too.
export { run } from '../support/bundle.js';
