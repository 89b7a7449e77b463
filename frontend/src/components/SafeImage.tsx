import { useState, type ImgHTMLAttributes } from 'react';
import { DEFAULT_IMAGE, imageUrl } from '../lib/cdn';

/** An image from the CDN that falls back to the default logo when missing or broken. */
export function SafeImage({ path, alt, ...rest }: { path: string | null | undefined; alt: string } & Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'>) {
  const [broken, setBroken] = useState<string | null>(null);
  const src = imageUrl(path);
  return (
    <img
      {...rest}
      alt={alt}
      src={broken === src ? DEFAULT_IMAGE : src}
      onError={() => setBroken(src)}
      loading="lazy"
    />
  );
}
