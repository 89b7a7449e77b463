type Scalar = string | number | boolean | File | Blob;
export type FormDataValue = Scalar | null | undefined | FormDataValue[] | { [key: string]: FormDataValue };

function append(form: FormData, key: string, value: FormDataValue, indexedLists: ReadonlySet<string>) {
  if (value === null || value === undefined) return;
  if (value instanceof Blob) {
    form.append(key, value);
  } else if (Array.isArray(value)) {
    // Lists of objects are always indexed (Cities[0].CityId); lists of scalars repeat
    // the key (assets=1&assets=2) unless named in indexedLists (deletedCities[0]=4).
    value.forEach((item, index) => {
      const isObject = typeof item === 'object' && item !== null && !(item instanceof Blob) && !Array.isArray(item);
      append(form, isObject || indexedLists.has(key) ? `${key}[${index}]` : key, item, indexedLists);
    });
  } else if (typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) append(form, `${key}.${name}`, item, indexedLists);
  } else {
    form.append(key, String(value));
  }
}

/** Builds a multipart body with the ASP.NET-style field names the API binds. */
export function toFormData(fields: Record<string, FormDataValue>, options: { indexedLists?: readonly string[] } = {}): FormData {
  const form = new FormData();
  const indexedLists = new Set(options.indexedLists);
  for (const [key, value] of Object.entries(fields)) append(form, key, value, indexedLists);
  return form;
}
