import type { Translation } from './en';
export const fr: Partial<Translation> = {};
