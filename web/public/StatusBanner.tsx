// A status banner: green when its (English) text says 'successfully', red otherwise.
// The rule is read on the English text so it holds in every language.
import { forwardRef } from 'react';
import { dictionaries, useT, type TextKey } from '../i18n';

export const isSuccessText = (text: string): boolean => /successfully/i.test(text);

export const StatusBanner = forwardRef<HTMLDivElement, { messageKey: TextKey; detail?: string }>(function StatusBanner(
  { messageKey, detail },
  ref,
) {
  const t = useT();
  const success = isSuccessText(dictionaries.en[messageKey]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className={`banner ${success ? 'banner--success' : 'banner--error'}`}
      role={success ? 'status' : 'alert'}
    >
      {t(messageKey)}
      {detail ? `: ${detail}` : null}
    </div>
  );
});
