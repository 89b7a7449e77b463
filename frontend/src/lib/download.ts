import { send, type Query } from './api';

export interface DownloadProgress {
  /** 'waiting' until the answer begins (the server writes a large export whole first), then 'receiving'. */
  phase: 'waiting' | 'receiving';
  received: number;
  /** From Content-Length; null when the server did not say. */
  total: number | null;
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

/** `attachment; filename="Users.xlsx"; filename*=UTF-8''Users.xlsx` → "Users.xlsx". */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (encoded) return decodeURIComponent(encoded[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename\s*=\s*("?)([^";]+)\1/i.exec(header);
  return plain ? plain[2].trim() : null;
}

/**
 * Downloads through the API client (bearer, refresh) and reports real progress:
 * 'waiting' while the server prepares the file, then the bytes read from the
 * body's stream against its Content-Length (or the bytes alone without one).
 */
export async function downloadFile(
  path: string,
  query: Query,
  onProgress?: (progress: DownloadProgress) => void,
): Promise<DownloadedFile> {
  onProgress?.({ phase: 'waiting', received: 0, total: null });
  // In the content language, so an export names things as the list does.
  const response = await send(path, { query, localized: true });
  const total = Number(response.headers.get('Content-Length')) || null;
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream';
  const fileName = fileNameFromDisposition(response.headers.get('Content-Disposition'));
  if (!response.body) return { blob: await response.blob(), fileName };

  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  onProgress?.({ phase: 'receiving', received, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress?.({ phase: 'receiving', received, total });
  }
  return { blob: new Blob(chunks, { type }), fileName };
}

export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled, or some browsers cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
