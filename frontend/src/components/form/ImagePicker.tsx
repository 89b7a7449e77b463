import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useRef, useState } from 'react';
import { imageUrl } from '../../lib/cdn';
import { t } from '../../lib/i18n';
import { Button, buttonClass } from '../Button';
import { SafeImage } from '../SafeImage';
import type { ControlProps } from './types';

/** A new File, the existing image's filePath, or nothing. */
export type ImageValue = File | string | null;

/** What the server accepts (it checks the bytes; this only spares a refused upload). */
const ACCEPTED_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
// The server's own messages for the same refusals (415 and 413).
export const IMAGE_TYPE_MESSAGE = 'Only PNG, JPEG, WebP or GIF images are accepted.';
export const IMAGE_SIZE_MESSAGE = 'The image is larger than 5 MB.';

function usePreviewUrl(value: ImageValue): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!(value instanceof File)) {
      setUrl(value ? imageUrl(value) : null);
      return;
    }
    const objectUrl = URL.createObjectURL(value);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [value]);
  return url;
}

function refusal(file: File): string | null {
  if (!ACCEPTED_TYPES.includes(file.type)) return IMAGE_TYPE_MESSAGE;
  if (file.size > MAX_IMAGE_BYTES) return IMAGE_SIZE_MESSAGE;
  return null;
}

/**
 * Whether the browser can decode the file as a picture: a text file renamed .png has an image
 * type by its name but no picture in it, and is refused when chosen rather than on Save.
 */
async function undecodable(file: File): Promise<string | null> {
  // Test environments without a decoder leave the bytes to the server, which checks them anyway.
  if (typeof createImageBitmap !== 'function') return null;
  try {
    (await createImageBitmap(file)).close();
    return null;
  } catch {
    return IMAGE_TYPE_MESSAGE;
  }
}

/**
 * Picks one image file, previews it, and lets the new choice be removed. The
 * record's stored image (a filePath) shows until a new file replaces it, and
 * removing a new file brings the stored image back: the API keeps the old
 * image whenever no file is sent, so there is nothing else to undo.
 */
export function ImagePicker({ id, value, onChange, onBlur, invalid, describedBy }: ControlProps<ImageValue>) {
  useSignals();
  const [stored] = useState(() => (value instanceof File ? null : value));
  const preview = usePreviewUrl(value);
  const [refused, setRefused] = useState<string | null>(null);
  const hintId = useId();
  // Only the latest choice counts when a slow decode of an earlier one finishes after it.
  const latestChoice = useRef<File | null>(null);

  return (
    <div className="flex items-center gap-4" onBlur={onBlur}>
      <div className="size-20 shrink-0 overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
        {preview ? (
          <SafeImage path={preview} alt={t('image.preview')} className="size-full object-cover" />
        ) : (
          <span className="flex size-full items-center justify-center p-1 text-center text-xs text-slate-600">{t('image.none')}</span>
        )}
      </div>
      <div className="flex min-w-0 flex-col items-start gap-2">
        {/* Change and Remove side by side, so Remove lines up with the button it undoes instead of hanging indented. */}
        <div className="flex flex-wrap items-center gap-2">
          <label className={`${buttonClass('secondary')} cursor-pointer focus-within:outline-2 focus-within:outline-indigo-600`}>
            {value ? t('button.changeImage') : t('button.chooseImage')}
            <input
              id={id}
              type="file"
              accept={ACCEPTED_TYPES.join(',')}
              className="sr-only"
              aria-invalid={invalid || undefined}
              aria-describedby={[describedBy, refused ? hintId : undefined].filter(Boolean).join(' ') || undefined}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (!file) return;
                latestChoice.current = file;
                const reason = refusal(file);
                setRefused(reason);
                if (reason) return;
                void undecodable(file).then((broken) => {
                  if (latestChoice.current !== file) return;
                  setRefused(broken);
                  if (!broken) onChange(file);
                });
              }}
            />
          </label>
          {value instanceof File && <Button onClick={() => onChange(stored)}>{t('button.remove')}</Button>}
        </div>
        {value instanceof File && (
          <span className="max-w-full truncate text-xs text-slate-500" title={value.name}>
            {value.name}
          </span>
        )}
        {refused && (
          <p id={hintId} className="text-xs text-red-600">
            {refused}
          </p>
        )}
      </div>
    </div>
  );
}
