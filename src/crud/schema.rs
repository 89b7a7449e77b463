//! OpenAPI schemas of a resource's rows, derived from its column declarations.

use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
use utoipa::openapi::{KnownFormat, RefOr, Schema, SchemaFormat};

use super::{Column, Kind, Resource};

fn column_schema(column: &Column) -> ObjectBuilder {
    let builder = ObjectBuilder::new();
    match column.kind {
        Kind::Int => builder.schema_type(Type::Integer),
        Kind::Float => builder.schema_type(Type::Number),
        Kind::Bool => builder.schema_type(Type::Boolean),
        Kind::Text => builder.schema_type(Type::String),
        Kind::DateTime => {
            builder.schema_type(Type::String).format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
        }
        Kind::File => builder.schema_type(Type::String).description(Some("Image path, e.g. cdn/12.png")),
    }
}

fn object<'a>(columns: impl Iterator<Item = &'a Column>) -> ObjectBuilder {
    columns.fold(ObjectBuilder::new(), |object, column| object.property(column.field, column_schema(column)))
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
