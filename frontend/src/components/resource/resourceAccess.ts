import { canWrite } from '../../lib/roles';
import type { UserProfile } from '../../lib/session';
import type { BulkAction, ResourceDeclaration, ResourceRow, RowTool } from './types';

/** What the signed-in person may do on a list screen: its declaration as their role allows it. */
export interface ResourceAccess<Row> {
  /** Editors may create, edit, switch and use the tools that change data; Call Center reads. */
  writable: boolean;
  /** Row and bulk delete (`remove`): for editors, or only for the roles the declaration lists. */
  canRemove: boolean;
  /** The bulk actions besides delete, for editors only. */
  bulkActions: readonly BulkAction<Row>[];
  /** Rows have a selection box: something applies to selected rows, and the screen allows selecting. */
  canSelect: boolean;
  /** The row tools this person gets (an editors-only tool is hidden from Call Center). */
  tools: readonly RowTool<Row>[];
  /** The signed-in person's own row, whose switch, delete and selection could only fail. */
  isOwn: (row: Row) => boolean;
}

export function resourceAccess<Row extends ResourceRow>(resource: ResourceDeclaration<Row>, user: UserProfile | null): ResourceAccess<Row> {
  const writable = canWrite(user?.roleId);
  const canRemove =
    typeof resource.remove === 'object' ? resource.remove.some((role) => role === user?.roleId) : writable && Boolean(resource.remove);
  const bulkActions = writable ? (resource.bulkActions ?? []) : [];
  return {
    writable,
    canRemove,
    bulkActions,
    canSelect: (canRemove || bulkActions.length > 0) && resource.selectable !== false,
    tools: (resource.tools ?? []).filter((tool) => writable || !tool.editorsOnly),
    isOwn: (row) => Boolean(user && resource.isOwnAccount?.(row, user)),
  };
}
