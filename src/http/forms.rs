//! Multipart forms as the specification names their fields (`name`, `file`, `Cities[0].CityId`,
//! `deletedCities[0]`, repeated `assets`), read whole and matched case-insensitively.
//!
//! File parts are kept as bytes; a handler asks `files` to check the one it stores as an image,
//! so a form of many file parts costs no decoding. This module depends on `files`, never the
//! other way round.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::body::Body;
use futures_util::StreamExt;

use axum::extract::multipart::MultipartError;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::StatusCode;

use crate::core::error::{AppError, AppResult};
use crate::http::files;
pub use crate::http::files::Upload;

/// Largest multipart request (an image plus the form's text).
pub const MULTIPART_LIMIT: usize = 6 * 1024 * 1024;
pub const FORM_TOO_LARGE: &str = "The form is too large.";

/// How a multipart form's reader refuses a malformed one (`core::refusals`).
pub const REFUSALS: &[&str] = &[
    "Send the form as multipart/form-data.",
    "The form could not be read: {problem}",
    "id must be a whole number.",
    "id is required",
    SENT_TWICE,
];

/// A field the route declares as one value, sent as two or more parts.
const SENT_TWICE: &str = "{field} must be sent once.";

/// A multipart form: text fields (a name may repeat) and uploaded files, keyed by lower-cased name.
#[derive(Default)]
pub struct Form {
    fields: HashMap<String, Vec<String>>,
    files: HashMap<String, Upload>,
}

impl<S: Send + Sync> FromRequest<S> for Form {
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> AppResult<Form> {
        let (parts, body) = request.into_parts();
        let declared = crate::http::declared::DeclaredRequest::of(&parts.extensions, &parts.method);
        let (body, cut) = capped(body);
        let mut multipart = Multipart::from_request(Request::from_parts(parts, body), state)
            .await
            .map_err(|_| AppError::UnsupportedMediaType("Send the form as multipart/form-data.".into()))?;
        let too_large = |e: &MultipartError| cut.load(Ordering::Relaxed) || e.status() == StatusCode::PAYLOAD_TOO_LARGE;
        // Only a field the route declares is read, so only such a field is refused.
        let scope = declared.scope("multipart/form-data");
        let mut form = Form::default();
        while let Some(mut field) = multipart.next_field().await.map_err(|e| multipart_error(too_large(&e), e, None))? {
            let name = field.name().unwrap_or_default().to_ascii_lowercase();
            match field.file_name().map(str::to_string) {
                // A file input left empty arrives as a part with an empty file name.
                Some(file_name) => {
                    let announced_image = field.content_type().is_some_and(|t| t.starts_with("image/"))
                        || IMAGE_EXTENSIONS.iter().any(|ext| file_name.to_ascii_lowercase().ends_with(ext));
                    let mut bytes = Vec::new();
                    while let Some(chunk) = field.chunk().await.map_err(|e| {
                        multipart_error(too_large(&e), e, Some(FilePart { announced_image, so_far: &bytes }))
                    })? {
                        bytes.extend_from_slice(&chunk);
                    }
                    // The first part of a name counts; a repeat is read past, not kept.
                    if (!file_name.is_empty() || !bytes.is_empty()) && !form.files.contains_key(&name) {
                        form.files.insert(name, Upload { file_name, bytes: bytes.into() });
                    }
                }
                None => {
                    let sent_name = field.name().unwrap_or_default().to_string();
                    let text = field.text().await.map_err(|e| multipart_error(too_large(&e), e, None))?;
                    let read = scope.property(&sent_name).is_some();
                    if let Some(message) =
                        read.then(|| crate::core::validation::control_character_refusal(&sent_name, &text)).flatten()
                    {
                        return Err(AppError::field(&sent_name, message));
                    }
                    if scope.single_valued(&sent_name) && form.fields.contains_key(&name) {
                        return Err(AppError::field(&sent_name, SENT_TWICE.replace("{field}", &sent_name)));
                    }
                    form.fields.entry(name).or_default().push(text);
                }
            }
        }
        Ok(form)
    }
}

/// The body up to [`MULTIPART_LIMIT`] bytes, and a flag set once more arrived. The frame that
/// crosses the limit is passed on cut to it, and anything after it fails: so the part being read
/// when the limit struck is seen (its first bytes tell an image from a text), even when the whole
/// body came as one frame, which a plain length limit would refuse before reading any of it.
fn capped(body: Body) -> (Body, Arc<AtomicBool>) {
    let cut = Arc::new(AtomicBool::new(false));
    let flag = cut.clone();
    let mut left = MULTIPART_LIMIT;
    let stream = body.into_data_stream().map(move |frame| {
        let bytes = frame?;
        if flag.load(Ordering::Relaxed) {
            return Err(axum::Error::new(FORM_TOO_LARGE));
        }
        if bytes.len() <= left {
            left -= bytes.len();
            return Ok(bytes);
        }
        flag.store(true, Ordering::Relaxed);
        let head = bytes.slice(..left);
        left = 0;
        Ok(head)
    });
    (Body::from_stream(stream), cut)
}

/// What was known of the file part being read when a form went past its limit.
struct FilePart<'a> {
    /// Its name or declared type says image (`logo.png`, `image/png`).
    announced_image: bool,
    so_far: &'a [u8],
}

const IMAGE_EXTENSIONS: &[&str] = &[".png", ".jpg", ".jpeg", ".webp", ".gif"];

/// A body past [`MULTIPART_LIMIT`] is "the image is too large" only when it was a file part that
/// looks like an image (its first bytes, or, when the limit struck before any arrived, its name
/// or declared type); otherwise it is the form that is too large.
fn multipart_error(too_large: bool, error: MultipartError, file: Option<FilePart>) -> AppError {
    if !too_large {
        return AppError::BadRequest(format!("The form could not be read: {}", error.body_text()));
    }
    let image = file.is_some_and(|part| match files::sniff(part.so_far) {
        Ok(_) => true,
        Err(_) => part.so_far.len() < 16 && part.announced_image,
    });
    if image { AppError::image_too_large(files::TOO_LARGE) } else { AppError::PayloadTooLarge(FORM_TOO_LARGE.into()) }
}

impl Form {
    /// The trimmed text of a field; empty when missing. Line breaks are stored as `\n`: browsers
    /// send a textarea's breaks as `\r\n` in a form (HTML's form encoding), which would otherwise
    /// differ from the same text sent as JSON and show doubled in a spreadsheet cell.
    pub fn text(&self, name: &str) -> String {
        self.fields
            .get(&name.to_ascii_lowercase())
            .and_then(|values| values.first())
            .map(|v| v.trim().replace("\r\n", "\n"))
            .unwrap_or_default()
    }

    /// Sets a text field as if it had been sent (a writer normalising another shape of it).
    pub fn set(&mut self, name: &str, value: &str) {
        self.fields.insert(name.to_ascii_lowercase(), vec![value.to_string()]);
    }

    /// How many characters a text field was sent with, before trimming (a `\r\n` line break
    /// counts once, as it is stored): what a maximum length is held to.
    pub fn sent_chars(&self, name: &str) -> usize {
        self.fields
            .get(&name.to_ascii_lowercase())
            .and_then(|values| values.first())
            .map_or(0, |value| value.chars().count() - value.matches("\r\n").count())
    }

    pub fn has(&self, name: &str) -> bool {
        self.fields.contains_key(&name.to_ascii_lowercase())
    }

    /// Every value of a field that may repeat (`assets`), or of `name[0]`, `name[1]`, ...
    pub fn list(&self, name: &str) -> Vec<String> {
        let name = name.to_ascii_lowercase();
        let mut values: Vec<String> = self.fields.get(&name).cloned().unwrap_or_default();
        let indexed: BTreeMap<usize, &String> = self
            .fields
            .iter()
            .filter_map(|(key, v)| {
                let index = key.strip_prefix(&name)?.strip_prefix('[')?.strip_suffix(']')?.parse().ok()?;
                Some((index, v.first()?))
            })
            .collect();
        values.extend(indexed.into_values().cloned());
        values.into_iter().map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect()
    }

    /// A whole number, `None` when blank, 400 naming the field when not a number.
    pub fn int(&self, name: &str, message: &str) -> AppResult<Option<i64>> {
        match self.text(name).as_str() {
            "" => Ok(None),
            text => crate::core::validation::parse_whole(text).map(Some).ok_or_else(|| AppError::field(name, message)),
        }
    }

    /// The `id` of the row an edit form changes.
    pub fn id(&self) -> AppResult<i64> {
        self.int("id", "id must be a whole number.")?.ok_or_else(|| AppError::field("id", "id is required"))
    }

    /// `true`, `on` and `1` are true; anything else (or missing) is false.
    pub fn bool(&self, name: &str) -> bool {
        matches!(self.text(name).to_ascii_lowercase().as_str(), "true" | "on" | "1")
    }

    pub fn file(&self, name: &str) -> Option<&Upload> {
        self.files.get(&name.to_ascii_lowercase())
    }

    /// Rows of `prefix[i].field` fields, in index order, each keyed by lower-cased field name.
    pub fn rows(&self, prefix: &str) -> Vec<HashMap<String, String>> {
        let prefix = format!("{}[", prefix.to_ascii_lowercase());
        let mut rows: BTreeMap<usize, HashMap<String, String>> = BTreeMap::new();
        for (key, values) in &self.fields {
            let Some(rest) = key.strip_prefix(&prefix) else { continue };
            let Some((index, field)) = rest.split_once("].") else { continue };
            let (Ok(index), Some(value)) = (index.parse::<usize>(), values.first()) else { continue };
            rows.entry(index).or_default().insert(field.to_string(), value.trim().to_string());
        }
        rows.into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> Form {
        let mut form = Form::default();
        for (name, value) in pairs {
            form.fields.entry(name.to_ascii_lowercase()).or_default().push(value.to_string());
        }
        form
    }

    #[test]
    fn indexed_rows_and_lists() {
        let form = form(&[
            ("Cities[1].CityId", "2"),
            ("Cities[0].CityId", "1"),
            ("Cities[0].Address", " Nizami 5 "),
            ("cities[1].address", "Atatürk 10"),
            ("deletedCities[1]", "9"),
            ("deletedCities[0]", "8"),
            ("assets", "3"),
            ("assets", "4"),
        ]);
        let rows = form.rows("Cities");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["cityid"], "1");
        assert_eq!(rows[0]["address"], "Nizami 5");
        assert_eq!(rows[1]["address"], "Atatürk 10");
        assert_eq!(form.list("deletedCities"), ["8", "9"]);
        assert_eq!(form.list("assets"), ["3", "4"]);
        assert_eq!(form.text("NAME"), "");
        assert!(form.int("assets", "x").unwrap() == Some(3));
    }

    #[test]
    fn a_textareas_line_breaks_are_stored_as_line_feeds() {
        let sent = form(&[("descriptionAz", "  Birinci sətir\r\nİkinci sətir\r\n\r\nSon  "), ("order", " 2 ")]);
        assert_eq!(sent.text("descriptionAz"), "Birinci sətir\nİkinci sətir\n\nSon");
        assert_eq!(sent.int("order", "x").unwrap(), Some(2));
        // A whole float's spelling is the number; anything else with a point is not (`parse_whole`).
        assert_eq!(form(&[("order", "2.0")]).int("order", "x").unwrap(), Some(2));
        assert!(form(&[("order", "02.0")]).int("order", "x").is_err());
    }
}
