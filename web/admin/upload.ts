// Ad media upload: the one REST call of the admin (POST /api/uploads), made with XMLHttpRequest
// because fetch cannot report upload progress. The returned /uploads/ path becomes `media_url`.
import { reportAuthProblem } from './trpc';

export type UploadProblem = 'unauthorized' | 'tooLarge' | 'unsupported' | 'network' | 'failed';

export class UploadError extends Error {
  constructor(readonly problem: UploadProblem) {
    super(`upload failed: ${problem}`);
  }
}

const MiB = 1024 * 1024;
/** The server's caps (src/media/store.ts): checked here too, so nobody waits for a refusal. */
export const UPLOAD_LIMITS = { image: 5 * MiB, video: 50 * MiB } as const;

/** Why a chosen file will not be accepted, or null. */
export function fileProblem(file: File): UploadProblem | null {
  const kind = file.type.startsWith('image/') ? 'image' : file.type.startsWith('video/') ? 'video' : null;
  if (!kind) return 'unsupported';
  if (file.size > UPLOAD_LIMITS[kind]) return 'tooLarge';
  return null;
}

/** Uploads one file; `onProgress` gets 0..1 while it goes. Resolves to its /uploads/ path. */
export function uploadFile(file: File, onProgress: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/uploads');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { url?: string } | null;
      if (xhr.status === 201 && body?.url) {
        onProgress(1);
        resolve(body.url);
        return;
      }
      if (xhr.status === 401) reportAuthProblem('unauthorized');
      if (xhr.status === 403) reportAuthProblem('forbidden');
      const problem: UploadProblem =
        xhr.status === 401
          ? 'unauthorized'
          : xhr.status === 413
            ? 'tooLarge'
            : xhr.status === 415
              ? 'unsupported'
              : 'failed';
      reject(new UploadError(problem));
    };
    xhr.onerror = () => reject(new UploadError('network'));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
