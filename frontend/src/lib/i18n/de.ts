import type { Translation } from './en';
export const de: Partial<Translation> = {};
