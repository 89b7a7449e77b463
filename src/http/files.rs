//! Uploaded images: accepted only when a maintained decoder (the `image` crate, PNG, JPEG, WebP
//! and GIF only) reads their header and dimensions within limits and decodes them whole; at most
//! 5 MB; kept in the `files` table as uploaded and served at `/cdn/{name}.{ext}` under a random,
//! unguessable name, with an ETag and long caching.
//!
//! This module knows nothing of multipart forms: `forms` reads a form into [`Upload`]s, and a
//! handler asks for the one it stores with [`checked_upload`], so dependencies go one way
//! (forms → files).

use std::io::Cursor;

use crate::db::sql::{Connection, OptionalExtension};
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use image::{AnimationDecoder, DynamicImage, ImageDecoder, ImageFormat, Limits};
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use crate::core::error::{AppError, AppResult};
use crate::core::refusals::Audience;
use crate::http::api::{Api, Doc};
use crate::http::state::AppState;

pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
pub const TOO_LARGE: &str = "The image is larger than 5 MB.";
pub const NOT_AN_IMAGE: &str = "Only PNG, JPEG, WebP or GIF images are accepted.";
pub const IMAGE_NOT_FOUND: &str = "Image not found.";

/// The tables of uploads' own that the activity log does not record, with the reason.
pub const UNRECORDED: &[(&str, &str)] =
    &[("files", "an uploaded image's bytes; the record that shows it records the change of image")];
/// Longest side of an accepted image, in pixels.
pub const MAX_IMAGE_SIDE: u32 = 8000;
/// Largest accepted image, in pixels (width × height).
pub const MAX_IMAGE_PIXELS: u64 = 40_000_000;
/// Pixels decoded over all frames of an animation: a small file may hold thousands of frames,
/// each composited onto the whole canvas, so the work is capped, not only the canvas.
const MAX_ANIMATION_PIXELS: u64 = 2 * MAX_IMAGE_PIXELS;
/// Frames of an animation: a logo or banner has a few dozen at most.
const MAX_ANIMATION_FRAMES: u64 = 1_000;
/// Time one image may take to decode; a file that takes longer is refused as not an image.
const MAX_DECODE_TIME: std::time::Duration = std::time::Duration::from_secs(3);
/// What the decoder may allocate: a 40-megapixel RGBA image (160 MB) plus its working memory.
const MAX_DECODE_ALLOC: u64 = 256 * 1024 * 1024;
/// Hex characters of a file's public name: 128 random bits, so names cannot be guessed or counted.
const NAME_HEX_LEN: usize = 32;

/// Decoding is CPU- and memory-heavy (up to a few hundred MB for a 40-megapixel image); one at a
/// time keeps a burst of uploads from taking both cores and the memory of the machine.
static DECODES: Semaphore = Semaphore::const_new(1);

pub fn routes() -> Api {
    // The image and form limits are met by every form with an image, so they are declared here.
    let refusals = [TOO_LARGE, NOT_AN_IMAGE, IMAGE_NOT_FOUND, super::forms::FORM_TOO_LARGE];
    Api::new().refuses(Audience::People, refusals).add(
        Method::GET,
        "/cdn/{file}",
        get(serve),
        Doc::new("Files", "An uploaded image, e.g. /cdn/3f2a…9c.png (public, cached)").file_path().returns_image(),
    )
}

/// An accepted image's content type and extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageKind {
    pub content_type: &'static str,
    pub ext: &'static str,
    format: ImageFormat,
}

/// Why bytes were refused as an image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    TooLarge,
    NotAnImage,
}

impl From<Refusal> for AppError {
    fn from(refusal: Refusal) -> AppError {
        match refusal {
            Refusal::TooLarge => AppError::image_too_large(TOO_LARGE),
            Refusal::NotAnImage => AppError::not_an_image(NOT_AN_IMAGE),
        }
    }
}

/// A file part of a form as received; nothing is decoded until a handler asks for it as an image
/// ([`checked_upload`]), so parts a handler does not use cost only their bytes.
pub struct Upload {
    pub file_name: String,
    pub bytes: Bytes,
}

/// How many uploads have been decoded since the process started (a test reads it to see that
/// parts nobody asked for are never decoded).
static IMAGES_CHECKED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub fn images_checked() -> u64 {
    IMAGES_CHECKED.load(std::sync::atomic::Ordering::Relaxed)
}

/// An image that passed [`check_image`] when its form was read, ready to be stored as uploaded.
pub struct CheckedImage {
    bytes: Bytes,
    kind: ImageKind,
}

/// The content type and extension the first bytes announce (PNG, JPEG, WebP, GIF), or a 415.
/// Only a first sieve: [`check_image`] decides.
pub fn sniff(bytes: &[u8]) -> AppResult<(&'static str, &'static str)> {
    announced(bytes).map(|kind| (kind.content_type, kind.ext)).ok_or_else(|| Refusal::NotAnImage.into())
}

fn announced(bytes: &[u8]) -> Option<ImageKind> {
    let (content_type, ext, format) = match infer::get(bytes)?.mime_type() {
        "image/png" => ("image/png", "png", ImageFormat::Png),
        "image/jpeg" => ("image/jpeg", "jpg", ImageFormat::Jpeg),
        "image/webp" => ("image/webp", "webp", ImageFormat::WebP),
        "image/gif" => ("image/gif", "gif", ImageFormat::Gif),
        _ => return None,
    };
    Some(ImageKind { content_type, ext, format })
}

/// Accepts bytes only when they announce an accepted format, are at most 5 MB, and the decoder
/// reads their header and dimensions within the limits and decodes every pixel (every frame of
/// an animation) without error. Anything else — truncated files, a bare signature, a header
/// declaring 50000×50000 pixels, a GIF whose "image" is a script — is refused.
pub fn check_image(bytes: &[u8]) -> Result<ImageKind, Refusal> {
    let kind = announced(bytes).ok_or(Refusal::NotAnImage)?;
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(Refusal::TooLarge);
    }
    match decode(bytes, kind.format) {
        Ok(()) => Ok(kind),
        Err(reason) => {
            tracing::debug!(format = kind.ext, reason, "upload refused by the image decoder");
            Err(Refusal::NotAnImage)
        }
    }
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_DECODE_ALLOC);
    limits
}

fn within_pixel_limit((width, height): (u32, u32)) -> Result<u64, String> {
    let pixels = u64::from(width) * u64::from(height);
    if pixels == 0 || pixels > MAX_IMAGE_PIXELS {
        return Err(format!("{width}×{height} pixels is outside the limits"));
    }
    Ok(pixels)
}

fn decode(bytes: &[u8], format: ImageFormat) -> Result<(), String> {
    use image::codecs::{gif::GifDecoder, jpeg::JpegDecoder, png::PngDecoder, webp::WebPDecoder};
    let text = |error: image::ImageError| error.to_string();
    let cursor = Cursor::new(bytes);
    // Setting the limits checks the declared width and height before any pixel is decoded.
    match format {
        ImageFormat::Png => {
            let decoder = PngDecoder::with_limits(cursor, limits()).map_err(text)?;
            let pixels = within_pixel_limit(decoder.dimensions())?;
            if decoder.is_apng().map_err(text)? {
                all_frames(decoder.apng().map_err(text)?.into_frames(), pixels)
            } else {
                whole(decoder)
            }
        }
        // A GIF's first frame may be fine and the rest a script: every frame is decoded.
        ImageFormat::Gif => {
            let mut decoder = GifDecoder::new(cursor).map_err(text)?;
            decoder.set_limits(limits()).map_err(text)?;
            let pixels = within_pixel_limit(decoder.dimensions())?;
            all_frames(decoder.into_frames(), pixels)
        }
        ImageFormat::WebP => {
            let mut decoder = WebPDecoder::new(cursor).map_err(text)?;
            decoder.set_limits(limits()).map_err(text)?;
            let pixels = within_pixel_limit(decoder.dimensions())?;
            if decoder.has_animation() { all_frames(decoder.into_frames(), pixels) } else { whole(decoder) }
        }
        _ => {
            let mut decoder = JpegDecoder::new(cursor).map_err(text)?;
            decoder.set_limits(limits()).map_err(text)?;
            within_pixel_limit(decoder.dimensions())?;
            whole(decoder)
        }
    }
}

/// Decodes every pixel of a still image, after reserving its buffer within the allocation limit.
fn whole(decoder: impl ImageDecoder) -> Result<(), String> {
    limits().reserve(decoder.total_bytes()).map_err(|error| error.to_string())?;
    DynamicImage::from_decoder(decoder).map(drop).map_err(|error| error.to_string())
}

/// Decodes every frame, each dropped before the next, within [`MAX_ANIMATION_PIXELS`],
/// [`MAX_ANIMATION_FRAMES`] and [`MAX_DECODE_TIME`].
fn all_frames(frames: image::Frames<'_>, canvas_pixels: u64) -> Result<(), String> {
    let started = std::time::Instant::now();
    let (mut decoded, mut count) = (0u64, 0u64);
    for frame in frames {
        frame.map_err(|error| error.to_string())?;
        decoded += canvas_pixels;
        count += 1;
        if decoded > MAX_ANIMATION_PIXELS || count > MAX_ANIMATION_FRAMES {
            return Err("the animation has too many frames".into());
        }
        if started.elapsed() > MAX_DECODE_TIME {
            return Err("the animation takes too long to decode".into());
        }
    }
    if count == 0 {
        return Err("the animation has no frames".into());
    }
    Ok(())
}

/// The verdict on an optional upload, before any write: the image to store, or a 413/415. The
/// bytes are checked on the blocking pool, one decode at a time, so decoding never stalls the
/// async threads and a burst of uploads cannot take both cores and the machine's memory.
pub async fn checked_upload(upload: Option<&Upload>) -> AppResult<Option<CheckedImage>> {
    let Some(upload) = upload else { return Ok(None) };
    let permit = DECODES.acquire().await.map_err(|_| anyhow::anyhow!("image checks are closed"))?;
    IMAGES_CHECKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let bytes = upload.bytes.clone();
    let checked = bytes.clone();
    let kind = tokio::task::spawn_blocking(move || check_image(&checked)).await??;
    drop(permit);
    Ok(Some(CheckedImage { bytes, kind }))
}

/// Stores a checked upload, if any; returns the new file's id. Only a [`CheckedImage`] can be
/// stored this way, so no handler can store bytes the decoder has not read.
/// Removes an image nobody shows any more (its record was deleted for good); one another record
/// still refers to stays, refused by the key. Returns whether it went.
pub fn remove_if_unused(tx: &Connection, id: i64) -> AppResult<bool> {
    // In a savepoint: the refusal must leave the transaction usable for what follows.
    match tx.savepoint(|tx| tx.execute("DELETE FROM files WHERE id = ?1", [id])) {
        Ok(removed) => Ok(removed == 1),
        Err(error) if error.is_foreign_key() => Ok(false),
        Err(error) => Err(error.into()),
    }
}

pub fn store_upload(tx: &Connection, upload: Option<CheckedImage>) -> AppResult<Option<i64>> {
    upload.map(|image| insert(tx, &image.bytes, image.kind)).transpose()
}

/// Checks and stores an image that did not come through a form (e.g. the demo's logos).
pub fn store_image(tx: &Connection, bytes: &[u8]) -> AppResult<i64> {
    let kind = check_image(bytes)?;
    insert(tx, bytes, kind)
}

fn insert(tx: &Connection, bytes: &[u8], kind: ImageKind) -> AppResult<i64> {
    let id = tx.insert(
        "INSERT INTO files (public_name, content_type, ext, size, sha256, bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        (new_public_name(), kind.content_type, kind.ext, bytes.len() as i64, hex::encode(Sha256::digest(bytes)), bytes),
    )?;
    Ok(id)
}

/// 128 random bits in lower-case hex. Not the content hash: the same logo uploaded twice gets
/// two names, and holding an image does not tell whether the server has it.
fn new_public_name() -> String {
    let bits: [u8; NAME_HEX_LEN / 2] = rand::random();
    hex::encode(bits)
}

/// The `filePath` of a resource's image, for a `FROM` that joins `files f`.
pub const FILE_PATH_SQL: &str = "CASE WHEN f.id IS NULL THEN NULL ELSE 'cdn/' || f.public_name || '.' || f.ext END";

fn not_found() -> Response {
    AppError::NotFound(IMAGE_NOT_FOUND.into()).into_response()
}

async fn serve(State(state): State<AppState>, Path(file): Path<String>, headers: HeaderMap) -> Response {
    // Only well-formed names reach the database; sequential ids (`/cdn/12.png`) are not names.
    let Some((name, wanted_ext)) = file.split_once('.') else { return not_found() };
    if name.len() != NAME_HEX_LEN || !name.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return not_found();
    }
    let (name, wanted_ext) = (name.to_string(), wanted_ext.to_ascii_lowercase());
    let found = state
        .db
        .run(move |conn| {
            Ok(conn
                .prepare_cached("SELECT content_type, ext, sha256, bytes FROM files WHERE public_name = ?1")?
                .query_row([name], |r| {
                    Ok((
                        r.get::<String>("content_type")?,
                        r.get::<String>("ext")?,
                        r.get::<String>("sha256")?,
                        r.get::<Vec<u8>>("bytes")?,
                    ))
                })
                .optional()?)
        })
        .await;
    let (content_type, _, sha, bytes) = match found {
        Ok(Some(row)) if row.1 == wanted_ext => row,
        Ok(_) => return not_found(),
        Err(error) => return error.into_response(),
    };
    let etag = format!("\"{sha}\"");
    let mut response = if headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Response::new(Body::from(bytes))
    };
    let out = response.headers_mut();
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable"));
    for (name, value) in [(header::CONTENT_TYPE, content_type), (header::ETAG, etag)] {
        if let Ok(value) = HeaderValue::from_str(&value) {
            out.insert(name, value);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_bytes_only_announce_a_format() {
        assert_eq!(sniff(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]).unwrap().1, "png");
        assert_eq!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0]).unwrap().1, "jpg");
        assert_eq!(sniff(b"GIF89a....").unwrap().1, "gif");
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 ").unwrap().1, "webp");
        assert!(sniff(b"<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>").is_err());
        assert!(sniff(b"<script>alert(1)</script>").is_err());
        assert!(sniff(b"").is_err());
    }

    #[test]
    fn announcing_is_not_enough() {
        assert_eq!(check_image(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]), Err(Refusal::NotAnImage));
        assert_eq!(check_image(b"GIF89a/*\0\0*/=alert(1)//"), Err(Refusal::NotAnImage));
    }

    #[test]
    fn dimensions_within_the_limits() {
        assert!(within_pixel_limit((8000, 5000)).is_ok());
        assert!(within_pixel_limit((7000, 7000)).is_err(), "49 megapixels");
        assert!(within_pixel_limit((0, 10)).is_err());
        assert!(limits().check_dimensions(8001, 1).is_err());
        assert!(limits().check_dimensions(1, 8001).is_err());
        assert!(limits().check_dimensions(8000, 8000).is_ok());
    }

    /// A 1×1 GIF of `frames` frames.
    fn gif_of(frames: usize) -> Vec<u8> {
        use image::codecs::gif::GifEncoder;
        use image::{Delay, Frame, Rgba, RgbaImage};
        let mut bytes = Vec::new();
        {
            let mut encoder = GifEncoder::new(&mut bytes);
            for n in 0..frames {
                let pixel = RgbaImage::from_pixel(1, 1, Rgba([(n % 256) as u8, 0, 0, 255]));
                encoder.encode_frame(Frame::from_parts(pixel, 0, 0, Delay::from_numer_denom_ms(10, 1))).unwrap();
            }
        }
        bytes
    }

    #[test]
    fn an_animation_of_more_frames_than_a_logo_has_is_refused() {
        assert!(check_image(&gif_of(MAX_ANIMATION_FRAMES as usize)).is_ok());
        assert_eq!(check_image(&gif_of(MAX_ANIMATION_FRAMES as usize + 1)), Err(Refusal::NotAnImage));
    }

    #[test]
    fn public_names_are_random_hex() {
        let (a, b) = (new_public_name(), new_public_name());
        assert_eq!(a.len(), NAME_HEX_LEN);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_ne!(a, b);
    }
}
