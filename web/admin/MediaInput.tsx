// Choosing an ad's media: a file to upload (image/* or video/*) or a media URL, with the
// upload's progress. The parent uploads on submit through `useMediaUpload`.
import { useEffect, useId, useRef, useState } from 'react';
import { useT, type TextKey } from './i18n';
import { fileProblem, uploadFile, UploadError, type UploadProblem } from './upload';
import { Field, MediaPreview } from './ui';

const PROBLEM_TEXT: Record<UploadProblem, TextKey> = {
  unauthorized: 'pleaseLogin',
  tooLarge: 'fileTooLarge',
  unsupported: 'fileUnsupported',
  network: 'networkError',
  failed: 'uploadFailed',
};

export interface MediaValue {
  file: File | null;
  url: string;
}

export const NO_MEDIA: MediaValue = { file: null, url: '' };

/** The upload state of one form: `resolve()` gives the media URL to save (uploading if needed). */
export function useMediaUpload() {
  const [progress, setProgress] = useState<number | null>(null);
  // The same file is not sent twice when a save is retried (e.g. after signing in again).
  const uploaded = useRef<{ file: File; url: string } | null>(null);

  async function resolve(value: MediaValue): Promise<string> {
    if (!value.file) return value.url.trim();
    if (uploaded.current?.file === value.file) return uploaded.current.url;
    setProgress(0);
    try {
      const url = await uploadFile(value.file, setProgress);
      uploaded.current = { file: value.file, url };
      return url;
    } finally {
      setProgress(null);
    }
  }
  return { progress, resolve };
}

export function uploadProblemKey(error: unknown): TextKey | null {
  return error instanceof UploadError ? PROBLEM_TEXT[error.problem] : null;
}

interface MediaInputProps {
  value: MediaValue;
  onChange: (value: MediaValue) => void;
  /** the media the item has now (edit mode): keeping it needs no input */
  current?: string;
  error?: string;
  progress: number | null;
  /** resets the file input when the parent form is reset */
  resetKey: number;
}

export function MediaInput({ value, onChange, current, error, progress, resetKey }: MediaInputProps) {
  const t = useT();
  const id = useId();
  const [fileError, setFileError] = useState<string | undefined>();
  useEffect(() => setFileError(undefined), [resetKey]);

  return (
    <fieldset className="admin-fieldset admin-media-input">
      <legend>{t('media')}</legend>
      <p className="admin-hint" id={`${id}-hint`}>
        {current ? t('mediaHintEdit') : t('mediaHint')}
      </p>
      {current && (
        <div className="admin-current-media">
          <span>{t('currentMedia')}</span>
          <MediaPreview url={current} alt={t('currentMedia')} />
        </div>
      )}
      <Field label={t('uploadFile')} hint={t('fileHint')} error={fileError ?? (value.file ? error : undefined)}>
        <input
          key={resetKey}
          type="file"
          accept="image/*,video/*"
          onChange={(event) => {
            const file = event.target.files?.[0] ?? null;
            const problem = file ? fileProblem(file) : null;
            setFileError(problem ? t(PROBLEM_TEXT[problem]) : undefined);
            onChange({ ...value, file: problem ? null : file });
            if (problem) event.target.value = '';
          }}
        />
      </Field>
      <Field label={t('mediaUrl')} hint={t('mediaUrlHint')} error={!value.file && !fileError ? error : undefined}>
        <input
          type="url"
          inputMode="url"
          value={value.url}
          disabled={value.file !== null}
          onChange={(event) => onChange({ ...value, url: event.target.value })}
        />
      </Field>
      {progress !== null && (
        <div className="admin-progress">
          <label htmlFor={`${id}-progress`}>{t('uploading', { percent: Math.round(progress * 100) })}</label>
          <progress id={`${id}-progress`} max={100} value={Math.round(progress * 100)} data-testid="upload-progress" />
        </div>
      )}
    </fieldset>
  );
}
