/** A tab of a dialog or drawer (a form's language tabs, a record's Details and History): underlined when chosen. */
export const TAB_CLASS =
  '-mb-px inline-flex items-center gap-1.5 border-b-2 border-transparent px-4 py-2 text-sm font-medium text-slate-600 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600 data-selected:border-indigo-600 data-selected:text-indigo-700';
