import type { Translation } from './en';
export const zh: Partial<Translation> = {};
