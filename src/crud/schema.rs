//! OpenAPI schemas of a resource's rows, derived from its column declarations.

use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, SchemaType, Type};
use utoipa::openapi::{KnownFormat, Ref, RefOr, Schema, SchemaFormat};

use crate::http::api::Component;

use super::{Column, ExtraShape, Kind, Resource};

/// A value, or null where the column may have none (an optional field, a LEFT JOIN without a
/// match, a row without an image); a column declared `never_null` always has one. The id always
/// has a value; a list is empty, never null.
fn column_schema(field: &str, kind: Kind, never_null: bool) -> Schema {
    let builder = ObjectBuilder::new();
    let or_null = |kind: Type| {
        if never_null || field == "id" { SchemaType::Type(kind) } else { SchemaType::Array(vec![kind, Type::Null]) }
    };
    let object = match kind {
        Kind::Int | Kind::Words(_) => builder.schema_type(or_null(Type::Integer)),
        Kind::Float => builder.schema_type(or_null(Type::Number)),
        Kind::Bool => builder.schema_type(or_null(Type::Boolean)),
        Kind::Text | Kind::Phone => builder.schema_type(or_null(Type::String)),
        Kind::DateTime => {
            builder.schema_type(or_null(Type::String)).format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
        }
        Kind::File => builder
            .schema_type(or_null(Type::String))
            .description(Some("Image path, e.g. cdn/3f2a9c0e5b7d41e6a8c2f0b9d4e1a7c3.png, or null")),
        Kind::Objects(fields) => return objects(fields, false),
        Kind::Strings => {
            return Schema::Array(ArrayBuilder::new().items(ObjectBuilder::new().schema_type(Type::String)).build());
        }
    };
    Schema::Object(object.build())
}

/// A list of objects with these fields (their values null where `never_null` is false).
fn objects(fields: &[(&str, Kind)], never_null: bool) -> Schema {
    let item = fields.iter().fold(ObjectBuilder::new(), |item, (name, kind)| {
        item.property(*name, column_schema(name, *kind, never_null)).required(*name)
    });
    Schema::Array(ArrayBuilder::new().items(item).build())
}

fn extra_schema(shape: ExtraShape) -> Schema {
    match shape {
        ExtraShape::Ids => {
            Schema::Array(ArrayBuilder::new().items(ObjectBuilder::new().schema_type(Type::Integer)).build())
        }
        ExtraShape::Objects(fields) => objects(fields, true),
    }
}

/// Every column a list row has is required (null where it may be null); the detail-only columns
/// are in single-row answers only.
fn object<'a>(columns: impl Iterator<Item = &'a Column>) -> ObjectBuilder {
    columns.fold(ObjectBuilder::new(), |object, column| {
        let object = object.property(column.field, column_schema(column.field, column.kind, column.never_null));
        if column.in_list { object.required(column.field) } else { object }
    })
}

/// The resource's rows as a named component (`UserRow`): a single row's answer also has the
/// detail-only columns and the declared extras (a partner's branches), which lists leave out.
pub fn row(resource: &Resource) -> Component {
    let extras = resource.detail_extra.map_or(&[][..], |extra| extra.fields);
    let object = extras
        .iter()
        .fold(object(resource.columns.iter()), |object, (name, shape)| object.property(*name, extra_schema(*shape)));
    Component { name: resource.row, schema: RefOr::T(Schema::Object(object.build())) }
}

/// A page of the resource's rows; the rows refer to [`row`], which the operation adds.
pub fn list(resource: &Resource) -> RefOr<Schema> {
    let rows = ArrayBuilder::new().items(RefOr::Ref(Ref::from_schema_name(resource.row)));
    RefOr::T(Schema::Object(
        ObjectBuilder::new()
            .property("data", rows)
            .property("totalCount", ObjectBuilder::new().schema_type(Type::Integer))
            .required("data")
            .required("totalCount")
            .build(),
    ))
}
