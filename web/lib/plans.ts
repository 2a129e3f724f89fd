// Plan arithmetic and description parsing.
import type { Plan } from './rest';

export type BillingPeriod = 'monthly' | 'annual';

/** 12 months with the 20% annual discount, in whole dollars. */
export const annualPrice = (monthly: number): number => Math.round(12 * monthly * 0.8);
/** What a year of annual billing saves, in whole dollars. */
export const annualSaving = (monthly: number): number => Math.round(12 * monthly * 0.2);

/** A premium plan is highlighted: its type says so, or its name mentions premium or full. */
export const isHighlighted = (plan: Pick<Plan, 'type' | 'name'>): boolean =>
  plan.type === 'premium' || /premium|full/i.test(plan.name);

export interface PlanDetails {
  text: string | null;
  features: string[];
  languages: string[];
}

const isTextList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** A description is plain text, or {features, languages} as an object or a JSON string of one. */
export function parseDescription(description: unknown): PlanDetails {
  let value = description;
  if (typeof value === 'string' && value.trim().startsWith('{')) {
    try {
      value = JSON.parse(value);
    } catch {
      // plain text that happens to start with a brace
    }
  }
  if (value && typeof value === 'object') {
    const { features, languages } = value as { features?: unknown; languages?: unknown };
    return {
      text: null,
      features: isTextList(features) ? features : [],
      languages: isTextList(languages) ? languages : [],
    };
  }
  return { text: typeof value === 'string' && value.trim() ? value.trim() : null, features: [], languages: [] };
}
