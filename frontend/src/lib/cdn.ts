import defaultLogo from '../assets/default-logo.svg';

export const DEFAULT_IMAGE = defaultLogo;

/** JSON carries "cdn/12.png"; the browser needs "/cdn/12.png". Missing paths get the default logo. */
export function imageUrl(filePath: string | null | undefined): string {
  if (!filePath) return DEFAULT_IMAGE;
  if (/^(https?:|data:|blob:|\/)/.test(filePath)) return filePath;
  return `/${filePath}`;
}
