import { signal } from '@preact/signals-react';
import { api } from '../../lib/api';

/** How many complaints nobody has read (`GET complaint/unreadCount`), for the side menu; null until read. */
export const unreadComplaints = signal<number | null>(null);

export async function refreshUnreadComplaints(): Promise<void> {
  try {
    unreadComplaints.value = (await api.get<{ count: number }>('complaint/unreadCount')).count;
  } catch {
    // The menu keeps its last count; the Complaints screen reports its own failures.
  }
}
