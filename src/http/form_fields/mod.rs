//! A form's fields, declared once: name as the wire spells it, column, kind, the required and
//! unique messages and how an edit treats each. From the declaration come the checks (in
//! declared order, with the specification's messages), the document's rules and messages
//! (`x-messages`, which the client's generated contract carries), and, in `crud::writes`, the
//! plain INSERT and UPDATE. A form that writes no row of its own (signing in) uses the fields
//! alone.
//!
//! The declarations are `fields.rs`, reading and checking a form's values `read.rs`, the
//! document's rules `rules.rs`, and the columns a write stores, with the statements made from
//! them, `columns.rs`.

mod columns;
mod fields;
mod read;
mod rules;

pub use columns::Columns;
pub use fields::{Bounds, Check, Field, FieldKind, Mode, OnEdit};
pub use read::{Decimal, Sent, Source, Values, json_object, read_fields, read_json_fields};
pub use rules::document_fields;
