-- SQLite's functions that the app's statements name, spelled for PostgreSQL (part of schema
-- version 16), so those statements stay one text on both engines: the merchant applications'
-- cities (resources/applications.rs), as a list and as the spec's `[{id, cityName}]`.

-- group_concat(value, separator): the non-null values joined in the order they come.
CREATE FUNCTION group_concat_step(joined text, value text, separator text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN value IS NULL THEN joined WHEN joined IS NULL THEN value ELSE joined || separator || value END;
CREATE AGGREGATE group_concat(text, text) (SFUNC = group_concat_step, STYPE = text);

-- json_object('id', id, 'cityName', name): the one shape the statements build.
CREATE FUNCTION json_object(text, bigint, text, text) RETURNS json
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN json_build_object($1, $2, $3, $4);

-- json_group_array(value): the values as a JSON array's text, `[]` for none (as SQLite's).
CREATE FUNCTION json_group_array_text(json[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN array_to_json($1)::text;
CREATE AGGREGATE json_group_array(json) (
    SFUNC = array_append, STYPE = json[], FINALFUNC = json_group_array_text, INITCOND = '{}'
);
