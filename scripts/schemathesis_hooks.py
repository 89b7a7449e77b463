"""schemathesis hooks for perkdesk (loaded by scripts/schemathesis through SCHEMATHESIS_HOOKS).

Image parts of multipart forms are documented with `encoding.<field>.contentType` naming the
accepted image types. The server decodes every upload, so a valid request must carry a real image
of one of those types: these strategies give schemathesis one small real file per type.
Negative cases still get arbitrary bytes and must be refused.
"""

from hypothesis import strategies as st

import schemathesis
from schemathesis.core.file_samples import MEDIA_TYPE_FILE_SAMPLES

for media_type, sample in MEDIA_TYPE_FILE_SAMPLES.items():
    schemathesis.openapi.media_type(media_type, st.just(sample))
