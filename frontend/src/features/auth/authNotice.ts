import { signal } from '@preact/signals-react';
import type { AlertTone } from '../../components/Alert';

/** A message one auth screen leaves for the next (e.g. "check your e-mail" after forgot-password). */
export const authNotice = signal<{ tone: AlertTone; text: string } | null>(null);
