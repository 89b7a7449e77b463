type Scalar = string | number | boolean | File | Blob;
export type FormDataValue = Scalar | null | undefined | FormDataValue[] | { [key: string]: FormDataValue };

function append(form: FormData, key: string, value: FormDataValue) {
  if (value === null || value === undefined) return;
  if (value instanceof Blob) {
    form.append(key, value);
  } else if (Array.isArray(value)) {
    // Lists of scalars repeat the key (assets=1&assets=2); lists of objects are indexed (Cities[0].CityId).
    value.forEach((item, index) => {
      const isObject = typeof item === 'object' && item !== null && !(item instanceof Blob) && !Array.isArray(item);
      append(form, isObject ? `${key}[${index}]` : key, item);
    });
  } else if (typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) append(form, `${key}.${name}`, item);
  } else {
    form.append(key, String(value));
  }
}

/** Builds a multipart body with the ASP.NET-style field names the API binds. */
export function toFormData(fields: Record<string, FormDataValue>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) append(form, key, value);
  return form;
}
