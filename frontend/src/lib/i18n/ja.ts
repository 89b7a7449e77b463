import type { Translation } from './en';
export const ja: Partial<Translation> = {};
