import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useState } from 'react';
import { imageUrl } from '../../lib/cdn';
import { t } from '../../lib/i18n';
import { Button, buttonClass } from '../Button';
import { SafeImage } from '../SafeImage';
import type { ControlProps } from './types';

/** A new File, the existing image's filePath, or nothing. */
export type ImageValue = File | string | null;

export const ONLY_IMAGES_MESSAGE = 'Only image files are accepted';

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

/** Picks one image file (nothing else is accepted), previews it and lets it be removed. */
export function ImagePicker({ id, value, onChange, onBlur, invalid, describedBy }: ControlProps<ImageValue>) {
  useSignals();
  const preview = usePreviewUrl(value);
  const [rejected, setRejected] = useState(false);
  const hintId = useId();

  return (
    <div className="flex items-center gap-4" onBlur={onBlur}>
      <div className="size-20 shrink-0 overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
        {preview ? (
          <SafeImage path={preview} alt={t('image.preview')} className="size-full object-cover" />
        ) : (
          <span className="flex size-full items-center justify-center p-1 text-center text-xs text-slate-400">{t('image.none')}</span>
        )}
      </div>
      <div className="flex flex-col gap-2">
        <label className={`${buttonClass('secondary')} cursor-pointer focus-within:outline-2 focus-within:outline-indigo-600`}>
          {value ? t('button.changeImage') : t('button.chooseImage')}
          <input
            id={id}
            type="file"
            accept="image/*"
            className="sr-only"
            aria-invalid={invalid || undefined}
            aria-describedby={[describedBy, rejected ? hintId : undefined].filter(Boolean).join(' ') || undefined}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (!file) return;
              const isImage = file.type.startsWith('image/');
              setRejected(!isImage);
              if (isImage) onChange(file);
            }}
          />
        </label>
        {value && (
          <Button variant="ghost" onClick={() => onChange(null)}>
            {t('button.remove')}
          </Button>
        )}
        {rejected && (
          <p id={hintId} className="text-xs text-red-600">
            {ONLY_IMAGES_MESSAGE}
          </p>
        )}
      </div>
    </div>
  );
}
