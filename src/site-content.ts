// What the administrator writes for the public pages beyond the spec's settings, shared by the
// settings procedure (validation) and the web app (the footer, the admin form).

/** The footer's social buttons, in their order there. */
export const SOCIAL_NETWORKS = ['facebook', 'x', 'instagram', 'linkedin'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
/** Their names, as the networks write them (the same in every language). */
export const SOCIAL_NETWORK_NAMES: Record<SocialNetwork, string> = { facebook: 'Facebook', x: 'X', instagram: 'Instagram', linkedin: 'LinkedIn' };

/**
 * The longest text of a legal page (Privacy Policy, Terms) in one language, in characters: both
 * pages in five languages stay within a request body's 64 KiB, with room for the other settings.
 */
export const LEGAL_TEXT_MAX = 4_000;
