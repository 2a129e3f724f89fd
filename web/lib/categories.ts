// Which categories the locator shows at once and which wait behind "More categories".
import type { CategoryId } from '../../src/places/model/category-ids';

/**
 * The categories people look for most, in that order: shown first (those the admin offers). The
 * others wait behind "More categories", so a phone's Search button and a keyboard's Tab are a
 * few steps away instead of thirty-four.
 */
export const EVERYDAY_CATEGORIES: readonly CategoryId[] = [
  'restaurant',
  'pharmacy',
  'supermarket',
  'atm',
  'bank',
  'gas_station',
  'hospital',
  'parking',
];
/** How many categories show before "More categories": the everyday ones, topped up from the rest. */
const FIRST_CATEGORIES = EVERYDAY_CATEGORIES.length;

/** The offered categories split into those shown at once and those behind "More categories". */
export function splitCategories(offered: readonly CategoryId[]): { first: CategoryId[]; more: CategoryId[] } {
  const everyday = EVERYDAY_CATEGORIES.filter((id) => offered.includes(id));
  const rest = offered.filter((id) => !everyday.includes(id));
  const first = [...everyday, ...rest.slice(0, Math.max(0, FIRST_CATEGORIES - everyday.length))];
  const more = rest.filter((id) => !first.includes(id));
  // A control that opens one or two more checkboxes costs a tap and a Tab for nothing.
  return more.length <= 2 ? { first: [...first, ...more], more: [] } : { first, more };
}
