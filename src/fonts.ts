// The six fonts the site offers; shared by the settings procedure and the
// admin's Visual Editor.
export const FONTS = [
  'Inter, sans-serif',
  'Roboto, sans-serif',
  'Open Sans, sans-serif',
  'Lato, sans-serif',
  'Montserrat, sans-serif',
  'Poppins, sans-serif',
] as const;
