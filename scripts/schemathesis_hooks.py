"""schemathesis hooks for perkdesk (loaded by scripts/schemathesis through SCHEMATHESIS_HOOKS).

They teach the generator rules that the OpenAPI document states but JSON Schema cannot express,
so that data the document calls valid is valid. They never touch negative cases, and they add
or drop no check.

- Image parts of multipart forms are documented with `encoding.<field>.contentType` naming the
  accepted image types. The server decodes every upload, so a valid request carries a real image
  of one of those types: each type gets one small real file.
- A confirmation field is documented as "the same as" its password field.
- A date range's end is documented as "not before its start".
- An `x-requestid` is documented as naming one request (reused with another payload: 422).
- (filter) Multipart cases the generator labels valid although a required field is empty, and
  stateful steps whose path carries a `null` taken from an earlier answer, are not sent as valid
  (schemathesis quirks, see `filter_case`).
- (filter) The one kind of negative case left out: a multipart form whose only violations are a
  text field "became" a number, boolean, null or object. Every part of a form is text, so such a
  value is sent as its own JSON text (`-6.5e+16`, `null`, `{"": {}}`), which is valid text: on the
  wire it is not negative (see `filter_case`). An array is not among them: its items go as
  repeated parts of the field, which the check still sends.
- A webhook endpoint is limited to one partner or one asset, and its URL is made a loopback one
  (the run's server allows them), so no delivery leaves the machine.
- A partner's branch row is documented as all four fields or none, and promo-code partners as
  naming their version (1 or 2).
- The employee import's file is an .xlsx with the template's header row.
- A campaign's start is not in the past and its expiry after it; a notification names the
  category (type 1) or campaign (type 2) it points at; a file part is a decodable image.
- (Python) `ast.parse` runs one at a time across the worker threads (a CPython bug, see below).
"""

import ast
import io
import threading
import uuid
import zipfile
from collections.abc import MutableMapping
from datetime import date, datetime, timedelta, timezone

from hypothesis import strategies as st

import schemathesis
from schemathesis.core.file_samples import MEDIA_TYPE_FILE_SAMPLES

# One ast.parse at a time. The run has two worker threads, and Hypothesis parses source to name
# the lambdas it filters by; CPython 3.11 (3.11.7 here) keeps the AST builder's recursion depth per
# interpreter, so two parses at once can fail with "SystemError: AST constructor recursion depth
# mismatch" (CPython issue gh-106905), which schemathesis reports as a runtime error of whichever
# operation it was generating. Serialising the parses costs nothing measurable.
_parse = ast.parse
_parse_lock = threading.Lock()


def _serialised_parse(*args, **kwargs):
    with _parse_lock:
        return _parse(*args, **kwargs)


ast.parse = _serialised_parse

for media_type, sample in MEDIA_TYPE_FILE_SAMPLES.items():
    schemathesis.openapi.media_type(media_type, st.just(sample))

CONFIRMATIONS = (("password", "confirmPassword"), ("newPassword", "newPasswordConfirm"))
# A partner's branch row is sent whole or not at all; values a valid row may hold.
BRANCH_ROW = {
    "Cities[0].CityId": 1,
    "Cities[0].Address": "Nizami 5",
    "Cities[0].Latitude": 40.4,
    "Cities[0].Longitude": 49.8,
}
YES = ("true", "on", "1")
DATE_RANGES = (("startDate", "endDate"),)


def _positive(case) -> bool:
    meta = getattr(case, "meta", None)
    generation = getattr(meta, "generation", None)
    mode = getattr(generation, "mode", None)
    return bool(mode is not None and mode.is_positive)


def _bounds(raw):
    """The server's [start, end) of a filter value: a whole UTC day, or one instant."""
    text = str(raw).strip()
    try:
        at = datetime.fromisoformat(text.replace("Z", "+00:00"))
        if at.tzinfo is not None and "T" in text.upper():
            at = at.astimezone(timezone.utc)
            return at, at
    except ValueError:
        pass
    try:
        day = date.fromisoformat(text[:10])
    except ValueError:
        return None
    start = datetime(day.year, day.month, day.day, tzinfo=timezone.utc)
    return start, start + timedelta(days=1)


@schemathesis.hook
def map_case(context, case):
    if not _positive(case):
        return case
    body = case.body
    importing = _path(case) == "/api/employee/import"
    if isinstance(body, MutableMapping) and importing:
        body["file"] = _import_workbook()
    if isinstance(body, MutableMapping) and not importing:
        for field, confirmation in CONFIRMATIONS:
            if isinstance(body.get(field), str) and confirmation in body:
                body[confirmation] = body[field]
        # Partner forms: a branch row is complete or absent; a promo-code partner names its version.
        if any(key in body for key in (*BRANCH_ROW, "Cities[0].Id")):
            for key, value in BRANCH_ROW.items():
                if not str(body.get(key, "")).strip():
                    body[key] = value
        _match_client_kind(body)
        _loopback_webhook(case, body)
        _fill_campaign_dates(body)
        _fill_notification_target(body)
        _real_images(body)
        if str(body.get("isPromoCodeUsing", "")).strip().lower() in YES and str(
            body.get("promoCodeVersion", "")
        ).strip() not in ("1", "2"):
            body["promoCodeVersion"] = "1"
    # x-requestid names one request: the document says a repeat with another payload is a 422,
    # so a valid request carries an id of its own. (Headers come as a case-insensitive mapping.)
    headers = case.headers
    if isinstance(headers, MutableMapping):
        for name in list(headers):
            if name.lower() == "x-requestid":
                headers[name] = uuid.uuid4().hex
    query = case.query
    if isinstance(query, MutableMapping):
        names = {name.lower(): name for name in query}
        for start_key, end_key in DATE_RANGES:
            start_name, end_name = names.get(start_key.lower()), names.get(end_key.lower())
            if start_name is not None and end_name is not None:
                start, end = _bounds(query[start_name]), _bounds(query[end_name])
                if start is None or end is None:
                    continue
                if start[0] >= end[1]:
                    query[start_name], query[end_name] = query[end_name], query[start_name]
                    start, end = end, start
                if start[0] >= end[1]:
                    # Two equal instants: a range needs its end after its start.
                    del query[end_name]
    return case


def _path(case):
    return getattr(getattr(case, "operation", None), "path", None)


# The employee import's columns (src/inbound/import.rs COLUMNS), in a workbook with no rows.
IMPORT_COLUMNS = ("Email", "First name", "Last name", "Phone number", "Asset", "Active")
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _import_workbook() -> bytes:
    """The import's documented file: an .xlsx whose first row names the template's columns."""
    cells = "".join(
        f'<c r="{chr(65 + i)}1" t="inlineStr"><is><t>{name}</t></is></c>' for i, name in enumerate(IMPORT_COLUMNS)
    )
    parts = {
        "[Content_Types].xml": (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
        ),
        "_rels/.rels": (
            f'<Relationships xmlns="{_RELS}"><Relationship Id="rId1" Type="{_DOC}/officeDocument" '
            'Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            f'<workbook xmlns="{_MAIN}" xmlns:r="{_DOC}"><sheets>'
            '<sheet name="Employees" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{_RELS}"><Relationship Id="rId1" Type="{_DOC}/worksheet" '
            'Target="worksheets/sheet1.xml"/></Relationships>'
        ),
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{_MAIN}"><sheetData><row r="1">{cells}</row></sheetData></worksheet>',
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' + text)
    return out.getvalue()


def _match_client_kind(body):
    """An API client of kind partner names its partner; an employee-app client names none."""
    if "kind" not in body or "rateLimitPerMinute" not in body and "name" not in body:
        return
    kind = str(body.get("kind", "")).strip().lower()
    if kind == "employee-app":
        body.pop("partnerId", None)
    elif kind == "partner" and not isinstance(body.get("partnerId"), int):
        body["partnerId"] = 1


def _loopback_webhook(case, body):
    """A webhook endpoint is documented as limited to one partner or one asset, never both; its URL
    is any http(s) address, made here a loopback one where nothing listens (the run's server allows
    private receivers), so no delivery of the run ever leaves the machine."""
    if not (_path(case) or "").startswith("/api/webhook") or "events" not in body:
        return
    if isinstance(body.get("url"), str):
        body["url"] = "http://127.0.0.1:9/schemathesis"
    if body.get("partnerId") is not None and body.get("assetId") is not None:
        body.pop("assetId")


def _fill_campaign_dates(body):
    """A campaign's start is documented as not in the past and its expiry as after its start."""
    if "startDate" in body or "expireDate" in body:
        today = datetime.now(timezone.utc).date()
        body["startDate"] = (today + timedelta(days=1)).isoformat()
        body["expireDate"] = (today + timedelta(days=30)).isoformat()


def _fill_notification_target(body):
    """A notification of type 1 names its category, one of type 2 its campaign."""
    kind = str(body.get("type", "")).strip()
    target = {"1": "categoryId", "2": "campaignId"}.get(kind)
    if target and not str(body.get(target, "")).strip():
        body[target] = 1


def _real_images(body):
    """A file part is documented as an image of an accepted type: random bytes are not one."""
    png = MEDIA_TYPE_FILE_SAMPLES.get("image/png")
    if png is None:
        return
    samples = {bytes(sample) for sample in MEDIA_TYPE_FILE_SAMPLES.values() if isinstance(sample, (bytes, bytearray))}
    for field, value in list(body.items()):
        is_file_field = field in ("file", "photo") or field.endswith("File")
        # Generated file parts come as bytes or wrapped in schemathesis's `Binary` (a str with `.data`).
        data = getattr(value, "data", value)
        if is_file_field and isinstance(data, (bytes, bytearray)) and bytes(data) not in samples:
            body[field] = png


def _required_form_fields(case):
    """The required properties of a multipart body, or () when it is not one."""
    try:
        if not str(case.media_type or "").startswith("multipart/form-data"):
            return ()
        body = case.operation.get_body_for_media_type(case.media_type)
        return tuple((body.resolved_schema or {}).get("required", ()))
    except Exception:
        return ()


# JSON Schema types whose values a form sends as their JSON text, which a `string` property takes
# as it is (an object as `{"": {}}`: a name field accepted it, 201, and schemathesis called that
# "schema-violating request accepted").
_SENT_AS_TEXT = ("number", "integer", "boolean", "null", "object")


def _text_in_disguise(case) -> bool:
    """A negative multipart case whose every violation is a text field turned into a number, a
    boolean, null or an object: the form sends that value as its JSON text, so the request is a
    valid one."""
    if not str(case.media_type or "").startswith("multipart/form-data"):
        return False
    data = getattr(getattr(getattr(case, "meta", None), "phase", None), "data", None)
    mutations = tuple(getattr(data, "mutations", ()) or ())
    return bool(mutations) and all(
        tuple(mutation.keywords) == ("type",)
        and mutation.original_value == "string"
        and mutation.new_value in _SENT_AS_TEXT
        for mutation in mutations
    )


@schemathesis.hook
def filter_case(context, case):
    """Drops "valid" cases that the document does not call valid, in two schemathesis quirks,
    and negative multipart cases that are valid on the wire (`_text_in_disguise`).

    - The coverage phase builds its multipart file-sample cases with every required field set to
      "" and still labels them valid, although the document requires text there (a pattern of
      non-blank text).
    - The stateful phase fills a path parameter from a list answer through an inferred link with
      a wildcard (`items[*].categoryId`); its pick among the matches can land on a `null`, which
      it then sends as the text "None" (`/api/campaign/category/None`) and still labels valid,
      although every path id is documented as an integer. (It skips a single `null` match.)
    """
    if not _positive(case):
        return not _text_in_disguise(case)
    path_parameters = case.path_parameters
    if isinstance(path_parameters, MutableMapping) and any(value is None for value in path_parameters.values()):
        return False
    if not isinstance(case.body, MutableMapping):
        return True
    for field in _required_form_fields(case):
        value = case.body.get(field)
        if value is None or (isinstance(value, (str, bytes)) and not value.strip()):
            return False
    return True
