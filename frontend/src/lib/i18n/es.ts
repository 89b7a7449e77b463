import type { Translation } from './en';
export const es: Partial<Translation> = {};
