//! OpenAPI schemas of a resource's rows, derived from its column declarations.

use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, SchemaType, Type};
use utoipa::openapi::{KnownFormat, RefOr, Schema, SchemaFormat};

use super::{Column, Kind, Resource};

/// A value, or null where the row has none (an optional field, a LEFT JOIN without a match, a
/// row without an image). Booleans and the id always have a value; a list is empty, never null.
fn column_schema(field: &str, kind: Kind) -> Schema {
    let builder = ObjectBuilder::new();
    let or_null =
        |kind: Type| if field == "id" { SchemaType::Type(kind) } else { SchemaType::Array(vec![kind, Type::Null]) };
    let object = match kind {
        Kind::Int | Kind::Words(_) => builder.schema_type(or_null(Type::Integer)),
        Kind::Float => builder.schema_type(or_null(Type::Number)),
        Kind::Bool => builder.schema_type(Type::Boolean),
        Kind::Text | Kind::Phone => builder.schema_type(or_null(Type::String)),
        Kind::DateTime => {
            builder.schema_type(or_null(Type::String)).format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
        }
        Kind::File => builder
            .schema_type(or_null(Type::String))
            .description(Some("Image path, e.g. cdn/3f2a9c0e5b7d41e6a8c2f0b9d4e1a7c3.png, or null")),
        Kind::Objects(fields) => {
            let item = fields.iter().fold(ObjectBuilder::new(), |item, (name, kind)| {
                item.property(*name, column_schema(name, *kind)).required(*name)
            });
            return Schema::Array(ArrayBuilder::new().items(item).build());
        }
    };
    Schema::Object(object.build())
}

fn object<'a>(columns: impl Iterator<Item = &'a Column>) -> ObjectBuilder {
    columns.fold(ObjectBuilder::new(), |object, column| {
        object.property(column.field, column_schema(column.field, column.kind))
    })
}

pub fn row(resource: &Resource) -> RefOr<Schema> {
    RefOr::T(Schema::Object(object(resource.columns.iter()).build()))
}

pub fn list(resource: &Resource) -> RefOr<Schema> {
    let rows = ArrayBuilder::new().items(object(resource.list_columns()));
    RefOr::T(Schema::Object(
        ObjectBuilder::new()
            .property("data", rows)
            .property("totalCount", ObjectBuilder::new().schema_type(Type::Integer))
            .required("data")
            .required("totalCount")
            .build(),
    ))
}
