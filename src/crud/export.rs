//! Streamed .xlsx exports of a resource's current filter: bold header, dates as Excel dates,
//! numbers as numbers, written in constant-memory mode to a temporary file and sent with its length.

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};

use super::{Column, Kind, Language, ListQuery, Resource};
use crate::core::error::{AppError, AppResult};
use crate::http::api::XLSX;
use crate::http::extract::QueryMap;
use crate::http::state::AppState;

pub async fn export(
    resource: &'static Resource,
    State(state): State<AppState>,
    query: QueryMap,
    headers: HeaderMap,
) -> AppResult<Response> {
    let spec = resource.export.ok_or_else(|| resource.not_found())?;
    let mut query = ListQuery::parse(resource, &query, Language::from_headers(&headers))?;
    query.skip = 0;
    let counts = state.db.counts();
    let public_url = state.settings.public_url.clone();
    let file = state
        .db
        .run(move |conn| {
            let columns: Vec<&Column> = spec
                .columns
                .iter()
                .map(|(_, field)| {
                    resource.column(field).ok_or_else(|| anyhow::anyhow!("export column {field} is not declared"))
                })
                .collect::<Result<_, _>>()?;
            let _spilled = crate::db::SpillToDisk::on(conn)?;
            let statement = query.plan_all(conn, &counts.reading_on(conn)?, resource, columns.iter().copied())?;
            let mut stmt = conn.prepare(&statement.sql)?;
            let mut rows = stmt.query_in_batches(crate::db::sql::params_from_iter(statement.params.iter()))?;
            let headers: Vec<&str> = spec.columns.iter().map(|(header, _)| *header).collect();
            let mut sheet = SheetWriter::new(resource.tag, &headers)?.with_links_from(&public_url);
            while let Some(row) = rows.next()? {
                sheet.write_row(&row, &columns)?;
            }
            sheet.finish()
        })
        .await?;
    file_response(file, spec.file_name).await
}

/// Excel's limit of hyperlinks in one worksheet.
const MAX_LINKS_PER_SHEET: u32 = 65_530;

/// Writes rows to worksheets in constant memory, one sheet after another.
pub struct SheetWriter {
    workbook: Workbook,
    /// The sheet being written, and its last written row.
    sheet: usize,
    sheets: usize,
    row: u32,
    date_format: Format,
    /// Where image paths are served from (the server's public address): a file is exported as an
    /// absolute link that opens it. Without it the path is written as text.
    link_base: Option<String>,
    /// Links written on the current sheet: Excel opens no more than 65,530 in one sheet, so
    /// later files are written as the same absolute address in plain text.
    links: u32,
}

impl SheetWriter {
    pub fn new(sheet_name: &str, headers: &[&str]) -> AppResult<SheetWriter> {
        let mut writer = SheetWriter {
            workbook: Workbook::new(),
            sheet: 0,
            sheets: 0,
            row: 0,
            date_format: Format::new().set_num_format("dd-mm-yyyy hh:mm"),
            link_base: None,
            links: 0,
        };
        writer.add_sheet(sheet_name, headers)?;
        Ok(writer)
    }

    pub fn with_links_from(mut self, public_url: &str) -> SheetWriter {
        self.link_base = Some(public_url.trim_end_matches('/').to_owned());
        self
    }

    /// Starts another worksheet with its bold header; the rows written next go to it.
    pub fn add_sheet(&mut self, sheet_name: &str, headers: &[&str]) -> AppResult<()> {
        let bold = Format::new().set_bold();
        let sheet = self.workbook.add_worksheet_with_constant_memory();
        sheet.set_name(sheet_name).map_err(xlsx_error)?;
        for (index, header) in headers.iter().enumerate() {
            let col = index as u16;
            sheet.set_column_width(col, (header.chars().count() as f64 + 4.0).max(18.0)).map_err(xlsx_error)?;
            sheet.write_with_format(0, col, *header, &bold).map_err(xlsx_error)?;
        }
        sheet.set_freeze_panes(1, 0).map_err(xlsx_error)?;
        self.sheet = self.sheets;
        self.sheets += 1;
        self.row = 0;
        self.links = 0;
        Ok(())
    }

    pub fn write_row(&mut self, row: &crate::db::sql::Row, columns: &[&Column]) -> AppResult<()> {
        self.row += 1;
        let sheet = self.workbook.worksheet_from_index(self.sheet).map_err(xlsx_error)?;
        for (index, column) in columns.iter().enumerate() {
            let col = index as u16;
            match column.kind {
                Kind::Words(words) => {
                    if let Some(code) = row.get::<Option<i64>>(index)? {
                        match usize::try_from(code).ok().and_then(|at| words.get(at)) {
                            Some(word) => sheet.write_string(self.row, col, *word),
                            None => sheet.write_number(self.row, col, code as f64),
                        }
                        .map_err(xlsx_error)?;
                    }
                }
                Kind::Phone => {
                    if let Some(text) = text_at(row, index)? {
                        sheet.write_string(self.row, col, display_phone(text)).map_err(xlsx_error)?;
                    }
                }
                Kind::File => {
                    if let Some(path) = text_at(row, index)? {
                        match &self.link_base {
                            Some(base) => {
                                let link = format!("{base}/{}", path.trim_start_matches('/'));
                                self.links += 1;
                                if self.links <= MAX_LINKS_PER_SHEET {
                                    sheet.write_url_with_text(self.row, col, link.as_str(), link.as_str())
                                } else {
                                    sheet.write_string(self.row, col, link)
                                }
                            }
                            None => sheet.write_string(self.row, col, path),
                        }
                        .map_err(xlsx_error)?;
                    }
                }
                Kind::Int | Kind::Float => {
                    if let Some(number) = row.get::<Option<f64>>(index)? {
                        sheet.write_number(self.row, col, number).map_err(xlsx_error)?;
                    }
                }
                Kind::Bool => {
                    if let Some(flag) = row.get::<Option<bool>>(index)? {
                        sheet.write_boolean(self.row, col, flag).map_err(xlsx_error)?;
                    }
                }
                Kind::DateTime => {
                    if let Some(text) = text_at(row, index)? {
                        match ExcelDateTime::parse_from_str(text.trim_end_matches('Z')) {
                            Ok(at) => sheet.write_datetime_with_format(self.row, col, &at, &self.date_format),
                            Err(_) => sheet.write_string(self.row, col, text),
                        }
                        .map_err(xlsx_error)?;
                    }
                }
                Kind::Text | Kind::Objects(_) | Kind::Strings => {
                    if let Some(text) = text_at(row, index)? {
                        sheet.write_string(self.row, col, text).map_err(xlsx_error)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Saves the workbook to an unnamed temporary file and returns it, rewound.
    pub fn finish(mut self) -> AppResult<std::fs::File> {
        let temp = tempfile::NamedTempFile::new().map_err(|e| AppError::Internal(e.into()))?;
        self.workbook.save(temp.path()).map_err(xlsx_error)?;
        // Reopened before the name is dropped: the data lives while the handle does.
        let file = temp.reopen().map_err(|e| AppError::Internal(e.into()))?;
        Ok(file)
    }
}

/// A stored phone as the screen shows it: 994513342591 as +994 51 334 25 91. Anything that is
/// not an Azerbaijani number of twelve digits is written as stored.
pub fn display_phone(digits: &str) -> std::borrow::Cow<'_, str> {
    let azerbaijani = digits.len() == 12 && digits.starts_with("994") && digits.bytes().all(|b| b.is_ascii_digit());
    if !azerbaijani {
        return digits.into();
    }
    let part = |from: usize, to: usize| &digits[from..to];
    format!("+994 {} {} {} {}", part(3, 5), part(5, 8), part(8, 10), part(10, 12)).into()
}

/// A text cell borrowed from the row (an export of a million rows would otherwise copy every one).
fn text_at<'r>(row: &'r crate::db::sql::Row, index: usize) -> crate::db::sql::Result<Option<&'r str>> {
    row.get_ref(index)?
        .as_str_or_null()
        .map_err(|error| crate::db::sql::Error::column(index.to_string(), "text", error))
}

fn xlsx_error(error: rust_xlsxwriter::XlsxError) -> AppError {
    AppError::Internal(anyhow::anyhow!("cannot write the spreadsheet: {error}"))
}

/// Sends a finished spreadsheet as a download with its length, so browsers can show progress.
pub async fn file_response(file: std::fs::File, file_name: &str) -> AppResult<Response> {
    let length = file.metadata().map_err(|e| AppError::Internal(e.into()))?.len();
    let stream = tokio_util::io::ReaderStream::new(tokio::fs::File::from_std(file));
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(XLSX)),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CONTENT_LENGTH, HeaderValue::from(length)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        Body::from_stream(stream),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::display_phone;

    #[test]
    fn phones_are_exported_as_the_screen_shows_them() {
        assert_eq!(display_phone("994513342591"), "+994 51 334 25 91");
        assert_eq!(display_phone("99451334259"), "99451334259");
        assert_eq!(display_phone("4915112345678"), "4915112345678");
        assert_eq!(display_phone("99451334259x"), "99451334259x");
    }
}
